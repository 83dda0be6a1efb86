package dev.verbs4j.netty.testsuite.tcp;

import dev.verbs4j.netty.testsuite.RdmaDifferences;
import dev.verbs4j.netty.testsuite.Verbs4jTestPermutation;
import io.netty.bootstrap.Bootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketChannelNotYetConnectedTest;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Netty's {@link SocketChannelNotYetConnectedTest} on verbs4j's channels, over the TCP fallback (TCP forced). */
class TcpSocketChannelNotYetConnectedTest extends SocketChannelNotYetConnectedTest {
    @Override
    protected List<BootstrapFactory<Bootstrap>> newFactories() {
        return Verbs4jTestPermutation.TCP.clientSocket();
    }

    @Test
    @Disabled(RdmaDifferences.PLAIN_TCP_SERVER)
    @Override
    public void readMustBePendingUntilChannelIsActive(TestInfo testInfo) {
    }
}
