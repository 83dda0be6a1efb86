package dev.verbs4j.netty.testsuite.tcp;

import dev.verbs4j.netty.testsuite.Verbs4jTestPermutation;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketAddressesTest;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Netty's {@link SocketAddressesTest} on verbs4j's channels, over the TCP fallback (TCP forced). */
class TcpSocketAddressesTest extends SocketAddressesTest {
    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return Verbs4jTestPermutation.TCP.socket();
    }

    @Override
    protected void assertAddress(SocketAddress address) {
        assertTrue(assertInstanceOf(InetSocketAddress.class, address).getPort() > 0, String.valueOf(address));
    }
}
