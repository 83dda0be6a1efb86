package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.bindings.Rdma;
import org.junit.jupiter.api.Test;

/** Opcode/flag values and the per-type opcode rules, and what a post failure says. */
class WorkRequestRulesTest {

    @Test
    void opcodesAndFlagsMatchTheHeader() {
        assertEquals(Rdma.IBV_WR_SEND(), SendOpcode.SEND.value());
        assertEquals(Rdma.IBV_WR_SEND_WITH_IMM(), SendOpcode.SEND_WITH_IMM.value());
        assertEquals(Rdma.IBV_WR_RDMA_WRITE(), SendOpcode.RDMA_WRITE.value());
        assertEquals(Rdma.IBV_WR_RDMA_WRITE_WITH_IMM(), SendOpcode.RDMA_WRITE_WITH_IMM.value());
        assertEquals(Rdma.IBV_WR_RDMA_READ(), SendOpcode.RDMA_READ.value());
        assertEquals(Rdma.IBV_WR_ATOMIC_CMP_AND_SWP(), SendOpcode.ATOMIC_CMP_AND_SWP.value());
        assertEquals(Rdma.IBV_WR_ATOMIC_FETCH_AND_ADD(), SendOpcode.ATOMIC_FETCH_AND_ADD.value());
        assertEquals(Rdma.IBV_SEND_SIGNALED(), SendFlag.SIGNALED.bit());
        assertEquals(Rdma.IBV_SEND_SOLICITED(), SendFlag.SOLICITED.bit());
        assertEquals(Rdma.IBV_SEND_INLINE(), SendFlag.INLINE.bit());
        assertEquals(Rdma.IBV_SEND_FENCE(), SendFlag.FENCE.bit());
        assertEquals(Rdma.IBV_SEND_SIGNALED() | Rdma.IBV_SEND_INLINE(), SendFlag.mask(SendFlag.SIGNALED, SendFlag.INLINE));
    }

    @Test
    void opcodesAllowedPerQpType() {
        for (SendOpcode op : SendOpcode.values()) {
            assertTrue(op.allowedOn(QpType.RC), op + " on RC");
        }
        assertTrue(SendOpcode.RDMA_WRITE.allowedOn(QpType.UC));
        assertFalse(SendOpcode.RDMA_READ.allowedOn(QpType.UC));
        assertFalse(SendOpcode.ATOMIC_FETCH_AND_ADD.allowedOn(QpType.UC));
        assertTrue(SendOpcode.SEND_WITH_IMM.allowedOn(QpType.UD));
        assertFalse(SendOpcode.RDMA_WRITE.allowedOn(QpType.UD));
        assertTrue(SendOpcode.ATOMIC_CMP_AND_SWP.isRemoteAccess() && SendOpcode.ATOMIC_CMP_AND_SWP.isAtomic());
        assertFalse(SendOpcode.SEND.isRemoteAccess());
    }

    @Test
    void failureNamesTheRequestTheErrnoAndWhatToDo() {
        WorkRequestException full = new WorkRequestException("ibv_post_send", Errno.ENOMEM, 2, 4, 99);
        assertEquals(2, full.index());
        assertEquals(4, full.chainLength());
        assertEquals(Errno.ENOMEM, full.errno());
        assertTrue(full.getMessage().contains("work request 2 of 4 (wr_id 99)"), full.getMessage());
        assertTrue(full.getMessage().contains("ENOMEM"), full.getMessage());
        assertTrue(full.getMessage().contains("send queue is full"), full.getMessage());
        WorkRequestException bad = new WorkRequestException("ibv_post_recv", Errno.EINVAL, 0, 1, 1);
        assertTrue(bad.getMessage().contains("receives need INIT"), bad.getMessage());
    }
}
