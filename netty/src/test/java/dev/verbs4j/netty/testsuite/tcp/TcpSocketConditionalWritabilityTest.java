package dev.verbs4j.netty.testsuite.tcp;

import dev.verbs4j.netty.testsuite.Verbs4jTestPermutation;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketConditionalWritabilityTest;
import java.util.List;

/** Netty's {@link SocketConditionalWritabilityTest} on verbs4j's channels, over the TCP fallback (TCP forced). */
class TcpSocketConditionalWritabilityTest extends SocketConditionalWritabilityTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return Verbs4jTestPermutation.TCP.socket();
    }
}
