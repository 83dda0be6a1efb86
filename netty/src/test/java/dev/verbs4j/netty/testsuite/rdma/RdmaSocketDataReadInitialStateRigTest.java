package dev.verbs4j.netty.testsuite.rdma;

import dev.verbs4j.netty.testsuite.RdmaDifferences;
import dev.verbs4j.netty.testsuite.Verbs4jTestPermutation;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.socket.SocketDataReadInitialStateTest;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Netty's {@link SocketDataReadInitialStateTest} on verbs4j's channels, over RDMA forced, on the rig's rxe0, with one allocator
 * (the host's run over TCP takes all three). */
@Tag("rdma")
class RdmaSocketDataReadInitialStateRigTest extends SocketDataReadInitialStateTest {
    @Override
    protected List<ByteBufAllocator> newAllocators() {
        return Verbs4jTestPermutation.rigAllocators();
    }

    @Override
    protected List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> newFactories() {
        return Verbs4jTestPermutation.RDMA.socket();
    }

    @Test
    @Disabled(RdmaDifferences.CONNECTED_ONLY_WHEN_ACCEPTED)
    @Override
    public void testAutoReadOffNoDataReadUntilReadCalled(TestInfo testInfo) {
    }
}
