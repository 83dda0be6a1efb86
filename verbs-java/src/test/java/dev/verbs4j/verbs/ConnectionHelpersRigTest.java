package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The staged connection helpers on the rig's device: two QPs brought up through
 * {@link QueuePairBuilder}, their endpoints swapped over a real TCP connection, moving real bytes.
 */
@Tag("rdma")
class ConnectionHelpersRigTest {
    private static final int BYTES = 4096;

    /** Two prepared QPs on one device, each with its own CQ and region, endpoints swapped over TCP. */
    private static final class Pair implements AutoCloseable {
        final Context ctx = RdmaTestSupport.openDevice();
        final Arena arena = Arena.ofShared();
        final ProtectionDomain pd = ctx.allocateProtectionDomain();
        final CompletionQueue cqA = ctx.createCompletionQueue(16);
        final CompletionQueue cqB = ctx.createCompletionQueue(16);
        final MemorySegment bufA = arena.allocate(BYTES, 4096);
        final MemorySegment bufB = arena.allocate(BYTES, 4096);
        final MemoryRegion mrA = pd.register(bufA, Access.ALL_REMOTE);
        final MemoryRegion mrB = pd.register(bufB, Access.ALL_REMOTE);
        QueuePair a;
        QueuePair b;
        QueuePairEndpoint peerOfA;
        QueuePairEndpoint peerOfB;

        Pair(QpType type) throws Exception {
            try (PreparedQueuePair preparedA = pd.queuePairBuilder(type, cqA).remoteAccess(Access.ALL_REMOTE).build();
                 PreparedQueuePair preparedB = pd.queuePairBuilder(type, cqB).remoteAccess(Access.ALL_REMOTE).build();
                 ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                CompletableFuture<QueuePairEndpoint> server = CompletableFuture.supplyAsync(() ->
                        EndpointExchange.accept(listener, preparedB.endpoint().withRegion(mrB), QpLoopback.TIMEOUT));
                peerOfA = EndpointExchange.connect("127.0.0.1", listener.getLocalPort(),
                        preparedA.endpoint().withRegion(mrA), QpLoopback.TIMEOUT);
                peerOfB = server.get();
                a = preparedA.connect(peerOfA);
                b = preparedB.connect(peerOfB);
            }
        }

        @Override
        public void close() {
            for (AutoCloseable c : new AutoCloseable[] {b, a, mrB, mrA, cqB, cqA, pd, ctx}) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException("closing " + c, e);
                }
            }
            arena.close();
        }
    }

    private static byte[] bytes(MemorySegment s, long offset, int length) {
        return s.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void rcOverTcpExchangeSendsWritesAndReadsWithThePeersKey() throws Exception {
        try (Pair p = new Pair(QpType.RC); WorkCompletions wc = new WorkCompletions(1);
             PreparedReceive recv = p.b.prepareReceive(1, 1);
             PreparedSend send = p.a.prepareSend(1, 1)) {
            assertEquals(QpState.RTS, p.a.state());
            assertEquals(p.b.number(), p.peerOfA.qpNumber());
            assertEquals(p.mrB.rkey(), p.peerOfA.region().rkey());
            QpAttributes qa = p.a.query();
            assertEquals(p.peerOfA.psn(), qa.rqPsn());
            assertEquals(p.peerOfB.psn(), qa.sqPsn());
            assertTrue(qa.allows(Access.REMOTE_READ) && qa.allows(Access.REMOTE_WRITE), "ALL_REMOTE taken at INIT");

            byte[] hello = "hello through the helper".getBytes(StandardCharsets.US_ASCII);
            MemorySegment.copy(hello, 0, p.bufA, ValueLayout.JAVA_BYTE, 0, hello.length);
            recv.wrId(1).sge(0, 0, p.mrB, 0, 256).post();
            send.wrId(2).sge(0, 0, p.mrA, 0, hello.length).flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();
            QpLoopback.awaitSuccess(p.cqA, wc, "the send");
            QpLoopback.awaitSuccess(p.cqB, wc, "the receive");
            assertEquals(hello.length, wc.byteLength(0));
            assertArrayEquals(hello, bytes(p.bufB, 0, hello.length));

            RemoteRegion target = p.peerOfA.region();
            byte[] written = "written with the peer's rkey".getBytes(StandardCharsets.US_ASCII);
            MemorySegment.copy(written, 0, p.bufA, ValueLayout.JAVA_BYTE, 512, written.length);
            send.opcode(0, SendOpcode.RDMA_WRITE).sge(0, 0, p.mrA, 512, written.length)
                    .remote(target.addressAt(1024, written.length), target.rkey()).wrId(3).post();
            QpLoopback.awaitSuccess(p.cqA, wc, "the RDMA write");
            assertArrayEquals(written, bytes(p.bufB, 1024, written.length));

            byte[] remote = "read back from the peer".getBytes(StandardCharsets.US_ASCII);
            MemorySegment.copy(remote, 0, p.bufB, ValueLayout.JAVA_BYTE, 2048, remote.length);
            send.opcode(0, SendOpcode.RDMA_READ).sge(0, 0, p.mrA, 3000, remote.length)
                    .remote(target.addressAt(2048, remote.length), target.rkey()).wrId(4).post();
            QpLoopback.awaitSuccess(p.cqA, wc, "the RDMA read");
            assertArrayEquals(remote, bytes(p.bufA, 3000, remote.length));

            // a wrong rkey: the device refuses it and says so in the completion status
            send.opcode(0, SendOpcode.RDMA_WRITE).sge(0, 0, p.mrA, 0, 8)
                    .remote(target.address(), target.rkey() ^ 0x5A5A00).wrId(5).post();
            QpLoopback.awaitOne(p.cqA, wc, "the write with a wrong rkey");
            assertFalse(wc.isSuccess(0));
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.statusEnum(0));
        }
    }

    @Test
    void aPreparedQpConnectsOnceAndAWrongGidIndexIsNamed() throws Exception {
        try (Pair p = new Pair(QpType.RC)) {
            PreparedQueuePair again = p.pd.queuePairBuilder(QpType.RC, p.cqA).build();
            try (again) {
                QueuePair qp = again.connect(p.peerOfB);
                try (qp) {
                    IllegalStateException twice = assertThrows(IllegalStateException.class,
                            () -> again.connect(p.peerOfB));
                    assertTrue(twice.getMessage().contains("used once"), twice.getMessage());
                    assertEquals(QpState.RTS, qp.state());
                }
            }
            VerbsException badGid = assertThrows(VerbsException.class,
                    () -> p.pd.queuePairBuilder(QpType.RC, p.cqA).gid(GidChooser.index(200)).build());
            assertTrue(badGid.getMessage().contains("GID index 200"), badGid.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> p.pd.queuePairBuilder(QpType.UD, p.cqA).remoteAccess(Access.ALL_REMOTE));
        }
    }

    @Test
    void udThroughTheHelperCarriesADatagram() throws Exception {
        try (Context ctx = RdmaTestSupport.openDevice(); Arena arena = Arena.ofConfined();
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             CompletionQueue cq = ctx.createCompletionQueue(16);
             WorkCompletions wc = new WorkCompletions(1)) {
            MemorySegment buf = arena.allocate(BYTES, 4096);
            try (MemoryRegion mr = pd.register(buf, Access.ALL_REMOTE);
                 PreparedQueuePair preparedA = pd.queuePairBuilder(QpType.UD, cq).build();
                 PreparedQueuePair preparedB = pd.queuePairBuilder(QpType.UD, cq).qkey(0x2222).build()) {
                QueuePairEndpoint endpointB = QueuePairEndpoint.fromBytes(preparedB.endpoint().toBytes());
                try (QueuePair a = preparedA.activate(); QueuePair b = preparedB.activate();
                     AddressHandle toB = preparedA.addressHandleTo(endpointB);
                     PreparedReceive recv = b.prepareReceive(1, 1); PreparedSend send = a.prepareSend(1, 1)) {
                    assertEquals(0x2222, b.query().qkey());
                    assertThrows(IllegalStateException.class, preparedA::activate);
                    byte[] payload = "a datagram".getBytes(StandardCharsets.US_ASCII);
                    MemorySegment.copy(payload, 0, buf, ValueLayout.JAVA_BYTE, 0, payload.length);
                    recv.wrId(1).sge(0, 0, mr, 1024, AddressHandle.GRH_BYTES + 256).post();
                    send.ud(0, toB, endpointB.qpNumber(), endpointB.qkey()).sge(0, 0, mr, 0, payload.length)
                            .flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(2).post();
                    QpLoopback.awaitSuccess(cq, wc, "the UD send or receive");
                    QpLoopback.awaitSuccess(cq, wc, "the UD send or receive");
                    assertArrayEquals(payload, bytes(buf, 1024 + AddressHandle.GRH_BYTES, payload.length));
                }
            }
        }
    }
}
