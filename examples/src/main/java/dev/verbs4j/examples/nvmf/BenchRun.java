package dev.verbs4j.examples.nvmf;

import dev.verbs4j.nvmf.IoBuffer;
import dev.verbs4j.nvmf.NvmfController;
import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.NvmfException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One closed-loop random I/O run: {@code depth} commands always in flight, spread over the
 * controller's I/O queues (command {@code tag} on queue {@code tag % queues}), each
 * resubmitted from its completion to a new random block-aligned offset, latencies kept in a
 * preallocated array. Nothing is allocated per I/O. Completions come from this thread's polling,
 * or, when the controller has a progress thread, from that thread while this one waits.
 */
final class BenchRun implements IoCallback {
    private final NvmfController controller;
    private final IoBuffer buffer;
    private final int nsid;
    private final boolean write;
    private final int depth;
    private final int blocksPerIo;
    private final long ioSlots;
    private final long[] started;
    private final long[] latencies;
    private int recorded;
    private long completed;
    private final boolean progressThread;
    private final AtomicInteger outstanding = new AtomicInteger();
    private final Object finished = new Object();
    private long stopAt;
    private long seed = 0x9E3779B97F4A7C15L;
    private NvmfException error;

    BenchRun(NvmfController controller, boolean progressThread, IoBuffer buffer, int nsid, boolean write, int depth,
             int blockSize, int ioBytes, long namespaceBlocks, int maxSamples) {
        this.controller = controller;
        this.progressThread = progressThread;
        this.buffer = buffer;
        this.nsid = nsid;
        this.write = write;
        this.depth = depth;
        this.blocksPerIo = ioBytes / blockSize;
        this.ioSlots = namespaceBlocks / blocksPerIo;
        this.started = new long[depth];
        this.latencies = new long[maxSamples];
    }

    record Result(long ios, double seconds, double iops, double p50Micros, double p99Micros) {
    }

    Result run(double seconds) {
        recorded = 0;
        completed = 0;
        long start = System.nanoTime();
        stopAt = start + (long) (seconds * 1e9);
        for (int tag = 0; tag < depth; tag++) {
            submit(tag);
        }
        if (progressThread) {
            awaitFinished();
        } else {
            while (outstanding.get() > 0) {
                controller.poll();
            }
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        if (error != null) {
            throw error;
        }
        Arrays.sort(latencies, 0, recorded);
        return new Result(completed, elapsed, completed / elapsed, percentile(0.50), percentile(0.99));
    }

    private void awaitFinished() {
        synchronized (finished) {
            while (outstanding.get() > 0) {
                try {
                    finished.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted during the run", e);
                }
            }
        }
    }

    private double percentile(double p) {
        if (recorded == 0) {
            return Double.NaN;
        }
        return latencies[Math.min(recorded - 1, (int) Math.ceil(p * recorded) - 1)] / 1000.0;
    }

    private void submit(int tag) {
        seed ^= seed << 13;
        seed ^= seed >>> 7;
        seed ^= seed << 17;
        long lba = Math.floorMod(seed, ioSlots) * blocksPerIo;
        long offset = (long) tag * blocksPerIo * (buffer.size() / depth / blocksPerIo);
        started[tag] = System.nanoTime();
        int queue = tag % controller.ioQueueCount();
        boolean posted = write
                ? controller.submitWrite(queue, nsid, lba, blocksPerIo, buffer, offset, this, tag)
                : controller.submitRead(queue, nsid, lba, blocksPerIo, buffer, offset, this, tag);
        if (!posted) {
            throw new IllegalStateException("queue full at depth " + depth + ": the queue size must exceed the depth");
        }
        outstanding.incrementAndGet();
    }

    @Override
    public void completed(long tag, NvmfException e) {
        long now = System.nanoTime();
        if (e != null) {
            error = e;
            release();
            return;
        }
        completed++;
        if (recorded < latencies.length) {
            latencies[recorded++] = now - started[(int) tag];
        }
        if (now < stopAt && error == null) {
            submit((int) tag);
        }
        release();
    }

    /** One command fewer in flight; the last one wakes the waiting thread. */
    private void release() {
        if (outstanding.decrementAndGet() == 0 && progressThread) {
            synchronized (finished) {
                finished.notifyAll();
            }
        }
    }
}
