package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.rig.RigEnvironment;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CmHandshake} on the rig's device: a server thread accepts with a prepared QP and announces
 * its region in the accept's private data; the client connects with its own prepared QP, writes
 * into the region with the announced rkey and sends a message. Every wait is bounded.
 */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CmHandshakeRigTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final byte[] WRITTEN = "written through an rdma_cm connection".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SENT = "sent after the write".getBytes(StandardCharsets.US_ASCII);

    @Test
    void preparedQpsConnectThroughRdmaCmAndCarryAWriteAndASend() throws Exception {
        InetAddress ip = InetAddress.getByName(RigEnvironment.current().address());
        CompletableFuture<Integer> port = new CompletableFuture<>();
        CompletableFuture<byte[]> server = CompletableFuture.supplyAsync(() -> serve(ip, port));
        try (CmEventChannel events = CmEventChannel.create();
             CmId id = CmHandshake.resolve(events, new InetSocketAddress(ip, port.get(30, TimeUnit.SECONDS)), WAIT);
             ProtectionDomain pd = id.context().allocateProtectionDomain();
             CompletionQueue cq = id.context().createCompletionQueue(8);
             Arena arena = Arena.ofConfined();
             WorkCompletions wc = new WorkCompletions(1)) {
            MemorySegment buf = arena.allocate(4096);
            MemorySegment.copy(WRITTEN, 0, buf, ValueLayout.JAVA_BYTE, 0, WRITTEN.length);
            MemorySegment.copy(SENT, 0, buf, ValueLayout.JAVA_BYTE, 1024, SENT.length);
            try (MemoryRegion mr = pd.register(buf, Access.ALL_REMOTE);
                 PreparedQueuePair prepared = pd.queuePairBuilder(QpType.RC, cq).build()) {
                CmHandshake.Connected c = CmHandshake.connect(id, prepared, CmConnectionParameters.defaults(), WAIT);
                RemoteRegion target = QueuePairEndpoint.fromBytes(c.event().privateData()).region();
                try (QueuePair qp = c.queuePair(); PreparedSend send = qp.prepareSend(1, 1)) {
                    assertEquals(QpState.RTS, qp.state());
                    send.opcode(0, SendOpcode.RDMA_WRITE).sge(0, 0, mr, 0, WRITTEN.length)
                            .remote(target.addressAt(100, WRITTEN.length), target.rkey())
                            .flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(1).post();
                    QpLoopback.awaitSuccess(cq, wc, "the RDMA write");
                    send.opcode(0, SendOpcode.SEND).sge(0, 0, mr, 1024, SENT.length).wrId(2).post();
                    QpLoopback.awaitSuccess(cq, wc, "the send");
                    id.disconnect(WAIT);
                    assertArrayEquals(WRITTEN, server.get(60, TimeUnit.SECONDS));
                }
            }
        }
    }

    /** Accepts one connection, announces its region, returns what was written into it once the send arrived. */
    private static byte[] serve(InetAddress ip, CompletableFuture<Integer> port) {
        try (CmEventChannel events = CmEventChannel.create(); CmId listener = events.createId(CmPortSpace.TCP)) {
            listener.bind(new InetSocketAddress(ip, 0));
            listener.listen(1);
            port.complete(listener.localAddress().getPort());
            CmEvent request = listener.awaitConnectRequest(WAIT);
            try (CmId id = request.id();
                 ProtectionDomain pd = id.context().allocateProtectionDomain();
                 CompletionQueue cq = id.context().createCompletionQueue(8);
                 Arena arena = Arena.ofConfined();
                 WorkCompletions wc = new WorkCompletions(1)) {
                MemorySegment buf = arena.allocate(4096);
                try (MemoryRegion mr = pd.register(buf, Access.ALL_REMOTE);
                     PreparedQueuePair prepared = pd.queuePairBuilder(QpType.RC, cq)
                             .remoteAccess(Access.ALL_REMOTE).build()) {
                    byte[] announce = prepared.endpoint().withRegion(mr).toBytes();
                    CmHandshake.Connected c = CmHandshake.accept(id, prepared,
                            CmConnectionParameters.defaults().withPrivateData(announce), WAIT);
                    try (QueuePair qp = c.queuePair(); PreparedReceive r = qp.prepareReceive(1, 1)) {
                        r.wrId(7).sge(0, 0, mr, 2048, 256).post();
                        QpLoopback.awaitSuccess(cq, wc, "the receive");
                        assertArrayEquals(SENT, buf.asSlice(2048, SENT.length).toArray(ValueLayout.JAVA_BYTE));
                        byte[] written = buf.asSlice(100, WRITTEN.length).toArray(ValueLayout.JAVA_BYTE);
                        id.awaitDisconnected(WAIT);
                        return written;
                    }
                }
            }
        } catch (RuntimeException e) {
            port.completeExceptionally(e);
            throw e;
        }
    }

    @Test
    void aRefusedConnectionFailsWithTheEventAndLeavesNoQp() throws Exception {
        InetAddress ip = InetAddress.getByName(RigEnvironment.current().address());
        try (CmEventChannel events = CmEventChannel.create()) {
            // nobody listens on this rdma_cm port: the kernel answers with a reject or unreachable
            CmId id = CmHandshake.resolve(events, new InetSocketAddress(ip, 19_998), WAIT);
            try (id; ProtectionDomain pd = id.context().allocateProtectionDomain();
                 CompletionQueue cq = id.context().createCompletionQueue(8);
                 PreparedQueuePair prepared = pd.queuePairBuilder(QpType.RC, cq).build()) {
                CmException e = assertThrows(CmException.class,
                        () -> CmHandshake.connect(id, prepared, CmConnectionParameters.defaults(), WAIT));
                assertTrue(e.actual() != null && (e.actual().type() == CmEventType.REJECTED
                        || e.actual().type() == CmEventType.UNREACHABLE), e.getMessage());
                assertThrows(IllegalStateException.class, prepared::release);
            }
        }
    }
}
