package dev.verbs4j.netty.testsuite.tcp;

import dev.verbs4j.netty.testsuite.RdmaDifferences;
import dev.verbs4j.netty.testsuite.Verbs4jTestPermutation;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketDataReadInitialStateTest;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Netty's {@link SocketDataReadInitialStateTest} on verbs4j's channels, over the TCP fallback (TCP forced). */
class TcpSocketDataReadInitialStateTest extends SocketDataReadInitialStateTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return Verbs4jTestPermutation.TCP.socket();
    }

    @Test
    @Disabled(RdmaDifferences.CONNECTED_ONLY_WHEN_ACCEPTED)
    @Override
    public void testAutoReadOffNoDataReadUntilReadCalled(TestInfo testInfo) {
    }
}
