package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance suite on shared memory, in each completion mode (shm forced; the killed-peer
 * test's peer is a child JVM on this host, so its death is seen through the unix socket).
 */
@ParameterizedClass
@EnumSource(CompletionMode.class)
class ShmChannelConformanceTest extends ChannelConformanceSuite {
    @Parameter
    CompletionMode mode;

    @Override
    ChannelConfig config(CompletionLoop loop) {
        return ChannelConfig.defaults().transport(TransportPreference.SHM).loop(loop).maxMessageSize(maxMessage());
    }

    @Override
    CompletionMode mode() {
        return mode;
    }

    @Override
    TransportKind expectedTransport() {
        return TransportKind.SHM;
    }
}
