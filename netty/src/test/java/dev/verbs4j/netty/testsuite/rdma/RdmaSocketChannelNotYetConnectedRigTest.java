package dev.verbs4j.netty.testsuite.rdma;

import dev.verbs4j.netty.testsuite.RdmaDifferences;
import dev.verbs4j.netty.testsuite.Verbs4jTestPermutation;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketChannelNotYetConnectedTest;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Netty's {@link SocketChannelNotYetConnectedTest} on verbs4j's channels, over RDMA forced, on the rig's rxe0, with one allocator
 * (the host's run over TCP takes all three). */
@Tag("rdma")
class RdmaSocketChannelNotYetConnectedRigTest extends SocketChannelNotYetConnectedTest {
    @Override
    protected List<ByteBufAllocator> newAllocators() {
        return Verbs4jTestPermutation.rigAllocators();
    }

    @Override
    protected List<BootstrapFactory<Bootstrap>> newFactories() {
        return Verbs4jTestPermutation.RDMA.clientSocket();
    }

    @Test
    @Disabled(RdmaDifferences.PLAIN_TCP_SERVER)
    @Override
    public void readMustBePendingUntilChannelIsActive(TestInfo testInfo) {
    }
}
