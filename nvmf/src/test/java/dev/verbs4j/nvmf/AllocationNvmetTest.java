package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.LbaOutOfRangeException;
import dev.verbs4j.nvmf.types.NvmeStatusException;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.rig.Commands;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The steady state of each I/O API allocates nothing on the thread that submits and polls:
 * heap bytes this thread allocated across many 4 KiB I/Os, after a warm-up that lets the JIT
 * compile the path. And {@link IoRequest} as a future: completed by the progress thread with the
 * right bytes, reusable, refusing a second submission while in flight.
 */
@Tag("rdma-nvmet")
class AllocationNvmetTest {
    private static final int WARMUP_IOS = 3000;
    private static final int MEASURED_IOS = 2000;
    /** Average heap bytes per I/O allowed: 0 is what the rig measures; room for one stray object. */
    private static final double MAX_BYTES_PER_IO = 1;
    private static final int IO_BYTES = 4096;
    private static final int LBA_SPREAD = 1024; // distinct 4 KiB slots the I/Os move over

    /** One I/O of a loop, numbered; a lambda made once, before the measurement. */
    @FunctionalInterface
    private interface Io {
        void run(int i);
    }

    /** Counts completions; made once, reused by every callback I/O. */
    private static final class Completions implements IoCallback {
        long count;
        NvmfException error;

        @Override
        public void completed(long tag, NvmfException e) {
            count++;
            if (e != null) {
                error = e;
            }
        }
    }

    private static double bytesPerIo(Io io) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARMUP_IOS; i++) {
            io.run(i);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MEASURED_IOS; i++) {
            io.run(i);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        return (double) allocated / MEASURED_IOS;
    }

    private static void report(String api, double perIo) {
        System.out.printf("allocation %s: %.2f bytes per I/O over %d I/Os%n", api, perIo, MEASURED_IOS);
    }

    @Test
    void theSynchronousCallbackAndRequestApisAllocateNothingPerIo() {
        try (NvmfController c = NvmfController.connect(NvmetRig.options());
             IoBuffer buf = c.allocateBuffer(IO_BYTES)) {
            int blocks = IO_BYTES / c.namespace(1).blockSize();

            double sync = bytesPerIo(i -> {
                long lba = (long) (i % LBA_SPREAD) * blocks;
                if (i % 2 == 0) {
                    c.write(1, lba, blocks, buf, 0);
                } else {
                    c.read(1, lba, blocks, buf, 0);
                }
            });
            report("read/write", sync);

            Completions done = new Completions();
            double callback = bytesPerIo(i -> {
                long lba = (long) (i % LBA_SPREAD) * blocks;
                long before = done.count;
                boolean posted = i % 2 == 0 ? c.submitWrite(0, 1, lba, blocks, buf, 0, done, i)
                        : c.submitRead(0, 1, lba, blocks, buf, 0, done, i);
                assertTrue(posted);
                while (done.count == before) {
                    c.poll();
                }
            });
            assertNull(done.error);
            report("submitRead/submitWrite + IoCallback", callback);

            IoRequest r = c.newRequest();
            double request = bytesPerIo(i -> {
                long lba = (long) (i % LBA_SPREAD) * blocks;
                (i % 2 == 0 ? c.submitWrite(r, 1, lba, blocks, buf, 0) : c.submitRead(r, 1, lba, blocks, buf, 0)).await();
            });
            report("submitRead/submitWrite + IoRequest", request);

            // For comparison only: a new future and callback per I/O.
            report("readAsync/writeAsync", bytesPerIo(i -> {
                long lba = (long) (i % LBA_SPREAD) * blocks;
                CompletableFuture<Void> f = i % 2 == 0 ? c.writeAsync(1, lba, blocks, buf, 0)
                        : c.readAsync(1, lba, blocks, buf, 0);
                while (!f.isDone()) {
                    c.poll(); // no progress thread: nobody else completes it
                }
                f.join();
            }));

            assertTrue(sync < MAX_BYTES_PER_IO, () -> "read/write allocates " + sync + " bytes per I/O");
            assertTrue(callback < MAX_BYTES_PER_IO, () -> "the callback API allocates " + callback + " bytes per I/O");
            assertTrue(request < MAX_BYTES_PER_IO, () -> "IoRequest allocates " + request + " bytes per I/O");
            assertNull(c.failure());
        }
    }

    @Test
    void requestsCompleteOnTheProgressThreadWithTheBytesWrittenAndAreReused() throws Exception {
        int depth = 24;
        try (NvmfController c = NvmfController.connect(NvmetRig.options().withProgressThread(true)
                .withProgressSpin(Duration.ZERO));
             IoBuffer w = c.allocateBuffer((long) depth * IO_BYTES);
             IoBuffer r = c.allocateBuffer((long) depth * IO_BYTES)) {
            int blocks = IO_BYTES / c.namespace(1).blockSize();
            IoRequest[] requests = new IoRequest[depth];
            for (int i = 0; i < depth; i++) {
                requests[i] = c.newRequest();
            }
            for (int round = 0; round < 3; round++) {
                fill(w.segment(), round);
                r.segment().fill((byte) 0);
                for (int i = 0; i < depth; i++) {
                    c.submitWrite(requests[i], 1, 2048 + (long) i * blocks, blocks, w, (long) i * IO_BYTES);
                }
                for (IoRequest q : requests) {
                    q.await();
                    assertTrue(q.isDone());
                }
                for (int i = 0; i < depth; i++) {
                    c.submitRead(requests[i], 1, 2048 + (long) i * blocks, blocks, r, (long) i * IO_BYTES);
                }
                for (IoRequest q : requests) {
                    assertNull(q.get(60, TimeUnit.SECONDS));
                }
                assertArrayEquals(w.segment().toArray(ValueLayout.JAVA_BYTE), r.segment().toArray(ValueLayout.JAVA_BYTE),
                        "round " + round);
            }
            assertNull(c.failure());
        }
    }

    /** Distinct bytes per round and per position, so a stale or misplaced block shows. */
    private static void fill(MemorySegment s, int round) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13 + i / IO_BYTES + round * 101));
        }
    }

    /** Without a progress thread a request stays in flight until someone polls: the misuse is certain. */
    @Test
    void aRequestInFlightCannotBeSubmittedAgainAndADoneOneStartsOver() throws Exception {
        try (NvmfController c = NvmfController.connect(NvmetRig.options());
             NvmfController other = NvmfController.connect(NvmetRig.options());
             IoBuffer buf = c.allocateBuffer(IO_BYTES)) {
            int blocks = IO_BYTES / c.namespace(1).blockSize();
            long size = c.namespace(1).size();
            IoRequest r = c.newRequest();
            assertFalse(r.isDone());
            assertThrows(IllegalStateException.class, r::await, "never submitted");
            assertThrows(IllegalArgumentException.class, () -> other.submitRead(r, 1, 0, blocks, buf, 0));

            assertSame(r, c.submitRead(r, 1, 0, blocks, buf, 0));
            assertFalse(r.isDone());
            assertThrows(IllegalStateException.class, () -> c.submitRead(r, 1, 0, blocks, buf, 0));
            assertThrows(IllegalStateException.class, () -> c.submitWrite(r, 1, 0, blocks, buf, 0));
            assertFalse(r.cancel(true));
            assertFalse(r.isCancelled());
            assertNull(r.get());
            assertTrue(r.isDone());

            // A failed I/O (the target's namespace disabled for the while): ExecutionException from get, the
            // NvmfException itself from await.
            String enable = "/sys/kernel/config/nvmet/subsystems/" + NvmetRig.nqn() + "/namespaces/1/enable";
            Commands.sh("echo 0 > " + enable);
            try {
                c.submitRead(r, 1, 0, blocks, buf, 0);
                ExecutionException e = assertThrows(ExecutionException.class, r::get);
                NvmeStatusException status = assertInstanceOf(NvmeStatusException.class, e.getCause());
                assertSame(status, assertThrows(NvmeStatusException.class, r::await));
            } finally {
                Commands.sh("echo 1 > " + enable);
            }
            // A range past the end is refused before it is sent, and leaves the request submittable.
            assertThrows(LbaOutOfRangeException.class, () -> c.submitRead(r, 1, size, blocks, buf, 0));

            // Resubmitting the done request clears the failure.
            c.submitRead(r, 1, 0, blocks, buf, 0).await();
            assertNull(r.get(10, TimeUnit.SECONDS));

            // Bad arguments leave it submittable.
            assertThrows(IndexOutOfBoundsException.class, () -> c.submitRead(r, 1, 0, blocks * 2, buf, 0));
            c.submitWrite(r, 1, 0, blocks, buf, 0).await();
            assertEquals(0, c.poll());
            assertNull(c.failure());
        }
    }
}
