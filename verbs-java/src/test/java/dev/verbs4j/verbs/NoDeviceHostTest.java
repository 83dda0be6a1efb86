package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Behaviour on a host whose kernel has no RDMA at all (this build machine, CI's host side). */
class NoDeviceHostTest {

    @Test
    void memlockLimitIsReadable() {
        MemlockLimit limit = MemlockLimit.current();
        assertTrue(limit.isUnlimited() || limit.soft() >= 0, limit.describe());
        assertTrue(limit.describe().contains("hard"));
    }

    @Test
    void memlockErrorSaysTheLimitAndTheFix() {
        VerbsException e = Hints.exception("cannot register 1 GiB", "ibv_reg_mr", Errno.ENOMEM);
        assertTrue(e instanceof MemoryLockLimitException);
        assertEquals(Errno.ENOMEM, e.errno());
        assertTrue(e.getMessage().contains("RLIMIT_MEMLOCK"), e.getMessage());
        assertTrue(e.getMessage().contains("ulimit -l"), e.getMessage());
        assertTrue(e.getMessage().contains(MemlockLimit.current().describe()), e.getMessage());
    }

    /** With no locked-memory limit in force ENOMEM is something else's doing, and the message does not blame the limit. */
    @Test
    void enomemWithoutAMemlockLimitNamesTheOtherLimits() {
        VerbsException e = Hints.exception("cannot create a QP", "ibv_create_qp", Errno.ENOMEM,
                new MemlockLimit(MemlockLimit.UNLIMITED, MemlockLimit.UNLIMITED));
        assertFalse(e instanceof MemoryLockLimitException, e.getMessage());
        assertTrue(e.getMessage().contains("RLIMIT_MEMLOCK is unlimited, so not the locked-memory limit")
                && e.getMessage().contains("max_qp") && e.getMessage().contains("rdma resource show"), e.getMessage());
        assertTrue(Hints.exception("cannot register", "ibv_reg_mr", Errno.ENOMEM, new MemlockLimit(65536, 65536))
                instanceof MemoryLockLimitException);
    }

    @Test
    void errorsCarryVerbErrnoAndHint() {
        VerbsException e = Hints.exception("cannot open", "ibv_open_device", Errno.ENODEV);
        assertEquals("ibv_open_device", e.verb());
        assertTrue(e.getMessage().contains("ENODEV"), e.getMessage());
        assertTrue(e.hint() != null && !e.hint().isEmpty());
    }

    @Test
    void heapSegmentsAreRefusedBeforeNativeCode() {
        // No device needed: the check comes first. A PD is not available here, so reach the check directly.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MemoryRegion(null, java.lang.foreign.MemorySegment.ofArray(new byte[64]), 0));
        assertTrue(e.getMessage().contains("heap"), e.getMessage());
    }

    @Test
    void gidFormattingMatchesIbvDevinfo() {
        byte[] raw = new byte[16];
        raw[10] = (byte) 0xff;
        raw[11] = (byte) 0xff;
        raw[12] = 10;
        raw[13] = 77;
        raw[15] = 1;
        GidEntry e = new GidEntry(1, 1, raw, GidType.ROCE_V2, "rig0");
        assertEquals("0000:0000:0000:0000:0000:ffff:0a4d:0001", e.formatted());
        assertTrue(e.isIpv4());
        assertEquals("10.77.0.1", e.address().getHostAddress());
    }

    @Test
    void noRdmaKernelMeansNoDevicesNotACrash() {
        // A build host without RDMA: libibverbs returns NULL with ENOSYS, which is "no devices".
        assumeFalse(Files.exists(Path.of("/sys/class/infiniband")), "this host has RDMA devices");
        assertEquals(0, Verbs.devices().size());
        VerbsException e = assertThrows(VerbsException.class, () -> Verbs.open("rxe0"));
        assertTrue(e.getMessage().contains("no RDMA device named 'rxe0'"), e.getMessage());
        assertTrue(e.getMessage().contains("ci/rig"), "points at the rig: " + e.getMessage());
    }
}
