package dev.verbs4j.guest;

import dev.verbs4j.guest.loop.CompletionLoop;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance suite on RDMA: both ends in this JVM on the rig's device (rxe0), RDMA forced so
 * a fallback is a failure, in each completion mode. Sizes and counts are kept small: the rig
 * emulates its CPU.
 */
@Tag("rdma")
@ParameterizedClass
@EnumSource(CompletionMode.class)
class RdmaChannelConformanceTest extends ChannelConformanceSuite {
    @Parameter
    CompletionMode mode;

    @Override
    ChannelConfig config(CompletionLoop loop) {
        return ChannelConfig.defaults().transport(TransportPreference.RDMA).loop(loop).maxMessageSize(maxMessage())
                .device(System.getenv().getOrDefault("RIG_DEVICE", "rxe0"))
                .receiveDepth(16).sendQueueDepth(16);
    }

    @Override
    CompletionMode mode() {
        return mode;
    }

    @Override
    TransportKind expectedTransport() {
        return TransportKind.RDMA;
    }

    @Override
    int messageCount() {
        return 40;
    }

    @Override
    int maxMessage() {
        return 16 * 1024;
    }
}
