package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Work requests that would hand freed, unfilled or unregistered memory to the provider are
 * refused in Java; before these checks the inline cases ended the JVM with SIGSEGV in the
 * provider's memcpy.
 */
@Tag("rdma")
class MemoryChecksRigTest {
    private static final int INLINE = SendFlag.mask(SendFlag.SIGNALED, SendFlag.INLINE);

    @Test
    void inlineSendFromAClosedArenaIsRefused() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small().withInlineData(64))) {
            Arena gone = Arena.ofShared();
            MemorySegment memory = gone.allocate(1 << 20, 4096); // large: freed by munmap, as in the crash
            MemoryRegion mr = l.track(l.pd.register(memory, java.util.Set.of(Access.LOCAL_WRITE)));
            PreparedSend send = l.track(l.a.prepareSend(1, 1)).sge(0, 0, mr, 0, 32).flags(0, INLINE);
            gone.close();
            IllegalStateException e = assertThrows(IllegalStateException.class, send::post);
            assertTrue(e.getMessage().contains("freed"), e.getMessage());

            PreparedSend direct = l.track(l.a.prepareSend(1, 1));
            Arena other = Arena.ofShared();
            MemorySegment freed = other.allocate(1 << 20).asSlice(0, 16);
            direct.sge(0, 0, freed).flags(0, INLINE);
            other.close();
            assertThrows(IllegalStateException.class, direct::post);
            assertThrows(IllegalStateException.class, () -> direct.address(0, 0, freed.address()),
                    "an entry in freed memory cannot be moved");
        }
    }

    @Test
    void inlineSendWithAnEntryNeverFilledIsRefused() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small().withInlineData(64))) {
            PreparedSend send = l.track(l.a.prepareSend(1, 1)).flags(0, INLINE);
            IllegalStateException e = assertThrows(IllegalStateException.class, send::post);
            assertTrue(e.getMessage().contains("never filled"), e.getMessage());
            PreparedSend plain = l.track(l.a.prepareSend(1, 1));
            assertThrows(IllegalStateException.class, plain::post);
            PreparedReceive recv = l.track(l.b.prepareReceive(2, 1)).sge(0, 0, l.mrB, 0, 64);
            assertThrows(IllegalStateException.class, recv::post, "request 1 was never filled");
            assertThrows(IllegalStateException.class, () -> send.length(0, 0, 8));
            assertThrows(IllegalStateException.class, () -> send.address(0, 0, l.mrA.address()));
        }
    }

    @Test
    void unregisteredMemoryOnlyInline() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small().withInlineData(64));
             Arena arena = Arena.ofConfined();
             WorkCompletions wc = new WorkCompletions(1)) {
            MemorySegment data = arena.allocate(16);
            data.fill((byte) 0x5a);
            PreparedSend send = l.track(l.a.prepareSend(1, 1)).sge(0, 0, data).flags(0, SendFlag.SIGNALED.bit());
            assertThrows(IllegalStateException.class, send::post, "lkey 0 without INLINE");
            l.track(l.b.prepareReceive(1, 1)).sge(0, 0, l.mrB, 0, 64).post();
            send.flags(0, INLINE).post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the inline send");
            QpLoopback.awaitSuccess(l.cqB, wc, "the receive");
            assertEquals(16, wc.byteLength(0));
            assertArrayEquals(data.toArray(ValueLayout.JAVA_BYTE), l.bufB.asSlice(0, 16).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void addressesOutsideTheirRegionAreRefused() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small())) {
            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            IllegalArgumentException noRegion = assertThrows(IllegalArgumentException.class,
                    () -> send.sge(0, 0, l.mrA.address(), 8, 0x7fff_0001));
            assertTrue(noRegion.getMessage().contains("lkey"), noRegion.getMessage());
            assertThrows(IndexOutOfBoundsException.class,
                    () -> send.sge(0, 0, l.mrA.address() + QpLoopback.BUFFER_BYTES - 4, 8, l.mrA.lkey()));
            assertThrows(IndexOutOfBoundsException.class, () -> send.sge(0, 0, l.mrA, -1, 8));
            assertThrows(IndexOutOfBoundsException.class, () -> send.sge(0, 0, l.mrA, 8, Integer.MAX_VALUE));
            send.sge(0, 0, l.mrA.address() + 8, 8, l.mrA.lkey());
            assertThrows(IndexOutOfBoundsException.class, () -> send.length(0, 0, QpLoopback.BUFFER_BYTES));
            assertThrows(IndexOutOfBoundsException.class, () -> send.address(0, 0, l.mrA.address() - 1));
            assertThrows(IndexOutOfBoundsException.class, () -> send.length(0, 0, -1));
            PreparedReceive recv = l.track(l.b.prepareReceive(1, 1));
            assertThrows(IllegalArgumentException.class, () -> recv.sge(0, 0, l.mrA.address(), 8, 12345));
        }
    }

    @Test
    void absurdSizesNameTheirLimit() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small())) {
            assertLimit("max_recv_wr", () -> l.a.prepareReceive(Integer.MAX_VALUE, 1));
            assertLimit("max_send_wr", () -> l.a.prepareSend(Integer.MAX_VALUE, 1));
            assertLimit("max_send_sge", () -> l.a.prepareSend(1, Integer.MAX_VALUE));
            assertLimit("max_recv_sge", () -> l.a.prepareReceive(1, Integer.MAX_VALUE));
            assertLimit("max_cqe", () -> l.ctx.createCompletionQueue(Integer.MAX_VALUE));
            assertLimit("MAX_CAPACITY", () -> new WorkCompletions(Integer.MAX_VALUE));
            assertLimit("max_qp_wr", () -> l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA)
                    .capabilities(new QpCapabilities(Integer.MAX_VALUE, 1, 1, 1, 0)).build()));
            assertLimit("max_sge", () -> l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA)
                    .capabilities(new QpCapabilities(1, 1, Integer.MAX_VALUE, 1, 0)).build()));
            CompletionChannel channel = l.track(l.ctx.createCompletionChannel());
            assertLimit("num_comp_vectors", () -> l.ctx.createCompletionQueue(4, channel, Integer.MAX_VALUE));
            try (SharedReceiveQueue srq = l.pd.createSharedReceiveQueue(8, 1)) {
                assertLimit("max_wr", () -> srq.prepareReceive(Integer.MAX_VALUE, 1));
                assertLimit("max_srq_wr", () -> l.pd.createSharedReceiveQueue(Integer.MAX_VALUE, 1));
            }
        }
    }

    private static void assertLimit(String limit, Runnable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().contains(limit), "message names " + limit + ": " + e.getMessage());
    }
}
