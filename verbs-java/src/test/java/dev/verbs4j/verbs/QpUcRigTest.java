package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * UC queue pairs, connected like RC but unacknowledged: SEND and RDMA WRITE work; RDMA READ and
 * atomics do not exist on UC and are refused before anything is posted.
 */
@Tag("rdma")
class QpUcRigTest {

    private static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed + i * 3);
        }
        return b;
    }

    @Test
    void sendAndRdmaWriteArrive() {
        try (QpLoopback l = QpLoopback.connected(QpType.UC, QpCapabilities.small(), false);
             WorkCompletions wc = new WorkCompletions(1)) {
            assertEquals(QpType.UC, l.a.type());
            assertEquals(QpState.RTS, l.a.state());
            QpAttributes attrs = l.b.query();
            assertEquals(l.a.number(), attrs.destQpNumber());
            assertTrue(attrs.allows(Access.REMOTE_WRITE));
            assertFalse(attrs.allows(Access.REMOTE_READ), "UC QPs take remote writes only");

            byte[] message = pattern(200, 1);
            byte[] written = pattern(500, 77);
            MemorySegment.copy(message, 0, l.bufA, ValueLayout.JAVA_BYTE, 0, message.length);
            MemorySegment.copy(written, 0, l.bufA, ValueLayout.JAVA_BYTE, 1024, written.length);
            // UC drops a SEND that finds no receive: post it first
            l.track(l.b.prepareReceive(1, 1)).wrId(0, 40).sge(0, 0, l.mrB, 0, 256).post();

            // the write, then the send: UC keeps order, so the send's receive proves the write landed
            PreparedSend chain = l.track(l.a.prepareSend(2, 1));
            chain.opcode(0, SendOpcode.RDMA_WRITE).sge(0, 0, l.mrA, 1024, written.length)
                    .remote(0, l.mrB.address() + 2048, l.mrB.rkey()).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(0, 1)
                    .sge(1, 0, l.mrA, 0, message.length).flags(1, SendFlag.mask(SendFlag.SIGNALED)).wrId(1, 2);
            chain.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the UC RDMA write");
            assertEquals(WcOpcode.RDMA_WRITE, wc.opcodeEnum(0));
            assertEquals(1, wc.wrId(0));
            QpLoopback.awaitSuccess(l.cqA, wc, "the UC send");
            assertEquals(WcOpcode.SEND, wc.opcodeEnum(0));
            assertEquals(2, wc.wrId(0));
            QpLoopback.awaitSuccess(l.cqB, wc, "the UC receive");
            assertEquals(40, wc.wrId(0));
            assertEquals(message.length, wc.byteLength(0));
            assertArrayEquals(message, l.bufB.asSlice(0, message.length).toArray(ValueLayout.JAVA_BYTE));
            assertArrayEquals(written, l.bufB.asSlice(2048, written.length).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void readAndAtomicsAreRefusedBeforePosting() {
        try (QpLoopback l = QpLoopback.connected(QpType.UC, QpCapabilities.small(), false);
             WorkCompletions wc = new WorkCompletions(1)) {
            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            send.sge(0, 0, l.mrA, 0, 8).remote(0, l.mrB.address(), l.mrB.rkey());
            for (SendOpcode op : EnumSet.of(SendOpcode.RDMA_READ, SendOpcode.ATOMIC_CMP_AND_SWP,
                    SendOpcode.ATOMIC_FETCH_AND_ADD)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> send.opcode(0, op));
                assertTrue(e.getMessage().contains(op.name()) && e.getMessage().contains("UC"), e.getMessage());
            }
            QueuePair fresh = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.UC, l.cqA).build()));
            IllegalArgumentException access = assertThrows(IllegalArgumentException.class,
                    () -> fresh.toInit(InitAttributes.connected(QpLoopback.PORT, EnumSet.of(Access.REMOTE_READ))));
            assertTrue(access.getMessage().contains("REMOTE_READ"), access.getMessage());
            assertEquals(QpState.RESET, fresh.state(), "refused in Java: ibv_modify_qp never ran");

            // nothing was posted: the QP is still usable and its CQ empty
            assertEquals(0, l.cqA.poll(wc));
            assertEquals(QpState.RTS, l.a.state());
            send.opcode(0, SendOpcode.RDMA_WRITE).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(0, 9).post();
            QpLoopback.awaitSuccess(l.cqA, wc, "a UC write after the refusals");
            assertEquals(9, wc.wrId(0));
        }
    }
}
