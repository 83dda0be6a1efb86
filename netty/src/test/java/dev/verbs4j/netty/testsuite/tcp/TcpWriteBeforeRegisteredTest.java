package dev.verbs4j.netty.testsuite.tcp;

import dev.verbs4j.netty.testsuite.Verbs4jTestPermutation;
import io.netty.bootstrap.Bootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.WriteBeforeRegisteredTest;
import java.util.List;

/** Netty's {@link WriteBeforeRegisteredTest} on verbs4j's channels, over the TCP fallback (TCP forced). */
class TcpWriteBeforeRegisteredTest extends WriteBeforeRegisteredTest {
    @Override
    protected List<BootstrapFactory<Bootstrap>> newFactories() {
        return Verbs4jTestPermutation.TCP.clientSocket();
    }
}
