package dev.verbs4j.guest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Watches a process's pinned memory ({@code VmPin} of /proc/PID/status, which the kernel raises
 * for every registered memory region and lowers when it is deregistered) and keeps each change
 * with when it was seen. An RDMA channel registers its buffers at the start of its RDMA connect
 * and deregisters them at its end, so a process with one channel at a time shows its RDMA
 * connects here, which no line of its own marks (the connect call spans the bootstrap and the
 * RDMA connect). Reading a /proc file costs no process start, unlike {@code rdma resource show},
 * so the watch sees within a few milliseconds.
 */
final class PinnedMemoryWatch implements AutoCloseable {
    /** Pinned memory seen from {@code at} (nanoTime) on. */
    record Change(long at, long pinnedKb) {}

    /**
     * How often the watch looks: well within a warm RDMA connect (150-200 ms in the rig), and
     * seldom enough to leave the emulated CPU to the peer it watches.
     */
    private static final long LOOK_MILLIS = 10;

    private final Path status;
    private final List<Change> changes = new ArrayList<>();
    private final Thread thread;
    private volatile boolean stop;

    PinnedMemoryWatch(long pid) {
        this.status = Path.of("/proc", Long.toString(pid), "status");
        this.thread = Thread.ofPlatform().daemon().name("pinned-memory-" + pid).start(this::watch);
    }

    private void watch() {
        long last = 0;
        while (!stop) {
            long now = System.nanoTime();
            long pinned = pinnedKb();
            if (pinned < 0) {
                return; // the process is gone
            }
            if (pinned != last) {
                synchronized (this) {
                    changes.add(new Change(now, pinned));
                    notifyAll();
                }
                last = pinned;
            }
            try {
                Thread.sleep(LOOK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** VmPin in kB, or -1 once the process is gone. */
    private long pinnedKb() {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmPin:")) {
                    return Long.parseLong(line.substring("VmPin:".length()).replace("kB", "").strip());
                }
            }
            return -1;
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }

    /**
     * The first moment after {@code after} (nanoTime) that the pinned memory grew, waiting for it
     * until {@code deadline}; -1 when it did not. (It shrinks in steps as a channel's regions go.)
     */
    synchronized long awaitGrowth(long after, long deadline) throws InterruptedException {
        while (true) {
            long growth = growthBetween(after, Long.MAX_VALUE);
            if (growth >= 0) {
                return growth;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !thread.isAlive()) {
                return -1;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** The first moment in ({@code from}, {@code to}) the pinned memory was seen to grow, or -1. */
    synchronized long growthBetween(long from, long to) {
        long before = 0;
        for (Change c : changes) {
            if (c.at() > from && c.at() < to && c.pinnedKb() > before) {
                return c.at();
            }
            before = c.pinnedKb();
        }
        return -1;
    }

    /** Every change so far. */
    synchronized List<Change> changes() {
        return new ArrayList<>(changes);
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join();
    }
}
