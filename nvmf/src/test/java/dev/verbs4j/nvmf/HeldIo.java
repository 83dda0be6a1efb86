package dev.verbs4j.nvmf;

import static dev.verbs4j.nvmf.WriteWorkload.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.nvmf.types.ControllerLostException;
import dev.verbs4j.nvmf.types.ControllerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * I/O sent to a controller whose target went away: 4 KiB asynchronous writes to the start of the
 * workload's region and a synchronous read on a thread of its own, held while the controller
 * reconnects, and all expected to fail with ControllerLostException once it gives up.
 */
final class HeldIo {
    private final NvmfController c;
    private final List<CompletableFuture<Void>> writes = new ArrayList<>();
    private final CompletableFuture<Void> read;

    /**
     * Sends one write per 4 KiB of {@code buf} and a read of one unit into {@code one}; {@code perUnit}
     * blocks make 4 KiB (asked of the controller before the fault: Identify is an admin command).
     */
    HeldIo(NvmfController c, int perUnit, IoBuffer buf, IoBuffer one) {
        this.c = c;
        for (int i = 0; i < buf.segment().byteSize() / WriteWorkload.UNIT; i++) {
            writes.add(c.writeAsync(1, WriteWorkload.REGION_LBA + (long) i * perUnit, perUnit, buf,
                    (long) i * WriteWorkload.UNIT));
        }
        read = CompletableFuture.runAsync(() -> c.read(1, WriteWorkload.REGION_LBA, perUnit, one, 0));
    }

    int count() {
        return writes.size() + 1;
    }

    /** Polls until every one ended within {@code bound}; each failed with ControllerLostException, and the controller is LOST. */
    void assertAllLost(Duration bound) {
        waitFor(() -> {
            c.poll();
            return writes.stream().allMatch(CompletableFuture::isDone) && read.isDone();
        }, bound, "held I/O failed");
        List<CompletableFuture<Void>> all = new ArrayList<>(writes);
        all.add(read);
        for (CompletableFuture<Void> f : all) {
            Throwable e = assertThrows(Exception.class, f::join).getCause();
            assertInstanceOf(ControllerLostException.class, e, () -> String.valueOf(e));
        }
        assertEquals(ControllerState.LOST, c.state());
        assertNotNull(c.failure());
    }
}
