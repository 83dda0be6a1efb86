package dev.verbs4j.netty.testsuite.tcp;

import dev.verbs4j.netty.testsuite.Blackhole;
import dev.verbs4j.netty.testsuite.Verbs4jTestPermutation;
import io.netty.bootstrap.Bootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketConnectionAttemptTest;
import java.util.List;

/** Netty's {@link SocketConnectionAttemptTest} on verbs4j's channels, over the TCP fallback (TCP forced). */
class TcpSocketConnectionAttemptTest extends SocketConnectionAttemptTest {
    static {
        Blackhole.open(); // where the suite's connects that must time out go: no packet leaves the machine
    }

    @Override
    protected List<BootstrapFactory<Bootstrap>> newFactories() {
        return Verbs4jTestPermutation.TCP.clientSocket();
    }
}
