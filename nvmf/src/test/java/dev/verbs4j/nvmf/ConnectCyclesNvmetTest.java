package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.rig.ResourceShow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Connect / disconnect cycles leave nothing behind: {@code rdma resource show}'s counts (ours and
 * the target's: PDs, CQs, QPs, cm_ids, MRs) return to where they started. The cycle count is
 * {@code -Dnvmf.cycles} (default 1000, as the issue asks: 59-96 ms a cycle in the emulated rig, 60 s in all).
 */
@Tag("rdma-nvmet")
class ConnectCyclesNvmetTest {

    private static String resources() {
        return ResourceShow.summary();
    }

    @Test
    void connectDisconnectCyclesLeakNothing() {
        int cycles = Integer.getInteger("nvmf.cycles", 1000);
        // one cycle first: librdmacm keeps the device context it opened for the life of the process
        NvmfController.connect(NvmetRig.options()).close();
        String before = resources();
        long start = System.nanoTime();
        for (int i = 0; i < cycles; i++) {
            try (NvmfController c = NvmfController.connect(NvmetRig.options())) {
                assertEquals(NvmetRig.nqn(), c.identity().subsystemNqn());
            }
        }
        long nanos = System.nanoTime() - start;
        System.out.printf("nvmf connect/disconnect: %d cycles, %.1f ms per cycle (admin + 1 I/O queue)%n", cycles,
                nanos / 1e6 / cycles);
        // the target frees its side in a work queue after the disconnect: wait for it, bounded
        String after = resources();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!after.equals(before) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            after = resources();
        }
        assertEquals(before, after);
        assertTrue(cycles > 0);
    }
}
