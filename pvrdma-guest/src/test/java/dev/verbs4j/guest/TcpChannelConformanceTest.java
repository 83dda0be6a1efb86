package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.loop.CompletionLoop;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance suite on TCP over loopback, in each completion mode (TCP forced, so it is the
 * same on a host with a device).
 */
@ParameterizedClass
@EnumSource(CompletionMode.class)
class TcpChannelConformanceTest extends ChannelConformanceSuite {
    @Parameter
    CompletionMode mode;

    @Override
    ChannelConfig config(CompletionLoop loop) {
        return ChannelConfig.defaults().transport(TransportPreference.TCP).loop(loop).maxMessageSize(maxMessage());
    }

    @Override
    CompletionMode mode() {
        return mode;
    }

    @Override
    TransportKind expectedTransport() {
        return TransportKind.TCP;
    }
}
