package dev.verbs4j.netty.testsuite.rdma;

import dev.verbs4j.netty.testsuite.Verbs4jTestPermutation;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketMultipleConnectTest;
import java.util.List;
import org.junit.jupiter.api.Tag;

/** Netty's {@link SocketMultipleConnectTest} on verbs4j's channels, over RDMA forced, on the rig's rxe0, with one allocator
 * (the host's run over TCP takes all three). */
@Tag("rdma")
class RdmaSocketMultipleConnectRigTest extends SocketMultipleConnectTest {
    @Override
    protected List<ByteBufAllocator> newAllocators() {
        return Verbs4jTestPermutation.rigAllocators();
    }

    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return Verbs4jTestPermutation.RDMA.socket();
    }
}
