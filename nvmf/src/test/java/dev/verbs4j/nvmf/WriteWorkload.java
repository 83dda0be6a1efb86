package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.rig.Commands;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A verified random-write workload for the reconnect tests: synchronous writes to the even 4 KiB
 * units of a region, asynchronous batches to the odd ones (disjoint, so each unit has one writer),
 * each unit's content naming the unit and its write's sequence number. What the API acknowledged
 * last for each unit is what it must hold afterwards, read back through the controller and through
 * the kernel initiator; a failed write fails the workload.
 */
final class WriteWorkload implements AutoCloseable {
    static final int UNIT = 4096;
    /** 4 KiB units from this LBA on: the workload's region, apart from what other tests write. */
    static final long REGION_LBA = 65536;
    static final int UNITS = 512;
    private static final int ASYNC_DEPTH = 8;

    private final NvmfController c;
    private final int perUnit;
    /** The seq of each unit's last acknowledged write, 0: never written. */
    private final long[] acked = new long[UNITS];
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong writes = new AtomicLong();
    private final ExecutorService workers = Executors.newFixedThreadPool(2); // both at once, whatever the common pool's size
    private final IoBuffer syncBuf;
    private final IoBuffer asyncBuf;
    private final CompletableFuture<Void> sync;
    private final CompletableFuture<Void> async;

    private WriteWorkload(NvmfController c) {
        this.c = c;
        int bs = c.namespace(1).blockSize();
        perUnit = UNIT / bs;
        assertTrue(c.namespace(1).size() >= REGION_LBA + (long) UNITS * perUnit, "namespace too small");
        syncBuf = c.allocateBuffer(UNIT);
        asyncBuf = c.allocateBuffer((long) UNIT * ASYNC_DEPTH);
        sync = CompletableFuture.runAsync(this::syncWrites, workers);
        async = CompletableFuture.runAsync(this::asyncWrites, workers);
    }

    /** Starts writing through {@code c}; the caller polls nothing (the async writer polls itself). */
    static WriteWorkload start(NvmfController c) {
        return new WriteWorkload(c);
    }

    /** Writes acknowledged so far. */
    long writes() {
        return writes.get();
    }

    /** Waits until {@code more} writes beyond the count now were acknowledged. */
    void awaitMore(long more, Duration bound, String what) {
        long from = writes.get();
        waitFor(() -> writes.get() >= from + more, bound, what);
    }

    private void syncWrites() {
        SplittableRandom r = new SplittableRandom(1);
        for (long seq = 1; !stop.get(); seq++) {
            int u = 2 * r.nextInt(UNITS / 2);
            fill(syncBuf.segment(), 0, u, seq);
            c.write(1, REGION_LBA + (long) u * perUnit, perUnit, syncBuf, 0);
            acked[u] = seq;
            writes.incrementAndGet();
        }
    }

    private void asyncWrites() {
        SplittableRandom r = new SplittableRandom(2);
        for (long seq = 1; !stop.get(); seq++) {
            List<CompletableFuture<Void>> batch = new ArrayList<>();
            int[] units = new int[ASYNC_DEPTH];
            for (int i = 0; i < ASYNC_DEPTH; i++) {
                units[i] = 2 * ((UNITS / 2 / ASYNC_DEPTH) * i + r.nextInt(UNITS / 2 / ASYNC_DEPTH)) + 1;
                fill(asyncBuf.segment(), (long) i * UNIT, units[i], seq);
                batch.add(c.writeAsync(1, REGION_LBA + (long) units[i] * perUnit, perUnit, asyncBuf, (long) i * UNIT));
            }
            while (!batch.stream().allMatch(CompletableFuture::isDone)) {
                c.poll();
            }
            for (int i = 0; i < ASYNC_DEPTH; i++) {
                batch.get(i).join(); // a failed write fails the workload
                acked[units[i]] = seq;
            }
            writes.addAndGet(ASYNC_DEPTH);
        }
    }

    /** Unit u's content for its write number seq: the pair in every long, so a torn or stale unit shows. */
    private static void fill(MemorySegment s, long at, int unit, long seq) {
        long v = ((long) unit << 40) | seq;
        for (int i = 0; i < UNIT; i += 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, at + i, v);
        }
    }

    /** Stops the writers (a failed write is thrown here) and reads the region back through the controller. */
    void stopAndVerify() throws Exception {
        stop.set(true);
        sync.get(30, TimeUnit.SECONDS);
        async.get(30, TimeUnit.SECONDS);
        try (IoBuffer check = c.allocateBuffer((long) UNIT * UNITS)) {
            c.read(1, REGION_LBA, (long) UNITS * perUnit, check, 0);
            assertUnits(check.segment());
        }
    }

    /** Reads the region back through the kernel initiator (nvme-cli), connected for it and disconnected after. */
    void verifyThroughKernel() throws Exception {
        Path dev = NvmetRig.kernelConnect();
        try (RandomAccessFile f = new RandomAccessFile(dev.toFile(), "r")) {
            byte[] region = new byte[UNIT * UNITS];
            int bs = Integer.parseInt(Commands.sh("cat /sys/block/" + dev.getFileName() + "/queue/logical_block_size")
                    .strip());
            f.seek(REGION_LBA * bs);
            f.readFully(region);
            assertUnits(MemorySegment.ofArray(region));
        } finally {
            NvmetRig.kernelDisconnect();
        }
    }

    /** The units written (acknowledged at least once). */
    int unitsWritten() {
        int n = 0;
        for (long a : acked) {
            n += a == 0 ? 0 : 1;
        }
        return n;
    }

    private void assertUnits(MemorySegment data) {
        for (int u = 0; u < acked.length; u++) {
            if (acked[u] == 0) {
                continue;
            }
            long expected = ((long) u << 40) | acked[u];
            for (int i = 0; i < UNIT; i += 8) {
                long got = data.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) u * UNIT + i);
                if (got != expected) {
                    throw new AssertionError("unit " + u + " byte " + i + ": 0x" + Long.toHexString(got)
                            + ", the last acknowledged write was 0x" + Long.toHexString(expected));
                }
            }
        }
        assertTrue(unitsWritten() > UNITS / 2, "only " + unitsWritten() + " units written");
    }

    /** Stops the writers if still running and frees their buffers. */
    @Override
    public void close() {
        stop.set(true);
        workers.shutdown();
        try {
            workers.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        syncBuf.close();
        asyncBuf.close();
    }

    static void waitFor(BooleanSupplier condition, Duration bound, String what) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + " not within " + bound);
            }
            LockSupport.parkNanos(1_000_000); // the guest's few CPUs go to the workload
        }
    }
}
