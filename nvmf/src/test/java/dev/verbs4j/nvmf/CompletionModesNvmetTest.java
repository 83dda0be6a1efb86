package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.nvmf.types.NvmfException;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every way to do I/O, on a controller whose queues are sources of its completion loop, in each
 * of the loop's modes: synchronous transfers (split at MDTS, several threads on one queue),
 * callbacks, reusable requests and futures, all with the bytes checked.
 */
@Tag("rdma-nvmet")
class CompletionModesNvmetTest {
    private static final int IO_BYTES = 4096;

    @ParameterizedTest
    @EnumSource(CompletionMode.class)
    void everyStyleOfIoCompletesThroughTheLoop(CompletionMode mode) throws Exception {
        int depth = 8;
        try (NvmfController c = NvmfController.connect(NvmetRig.options().withProgressThread(true)
                .withCompletionMode(mode));
             IoBuffer w = c.allocateBuffer(2L << 20);
             IoBuffer r = c.allocateBuffer(2L << 20)) {
            assertEquals(mode, c.options().completionMode());
            for (long i = 0; i < w.size(); i++) {
                w.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + mode.ordinal()));
            }
            int blocks = (int) (w.size() / c.namespace(1).blockSize());
            c.write(1, 4096, blocks, w, 0); // 2 MiB: several commands in flight at once
            c.read(1, 4096, blocks, r, 0);
            assertArrayEquals(w.segment().toArray(ValueLayout.JAVA_BYTE), r.segment().toArray(ValueLayout.JAVA_BYTE));
            assertEquals(0, c.poll(), "the loop delivers; poll has nothing to do");

            r.segment().fill((byte) 0);
            int ioBlocks = IO_BYTES / c.namespace(1).blockSize();
            AtomicReference<NvmfException> error = new AtomicReference<>();
            CountDownLatch callbacks = new CountDownLatch(depth);
            for (int i = 0; i < depth; i++) {
                assertTrue(c.submitRead(0, 1, 4096 + (long) i * ioBlocks, ioBlocks, r, (long) i * IO_BYTES,
                        (tag, e) -> {
                            if (e != null) {
                                error.set(e);
                            }
                            callbacks.countDown();
                        }, i));
            }
            assertTrue(callbacks.await(60, TimeUnit.SECONDS), "callbacks still due after 60 s");
            assertNull(error.get());
            assertArrayEquals(w.segment().asSlice(0, depth * IO_BYTES).toArray(ValueLayout.JAVA_BYTE),
                    r.segment().asSlice(0, depth * IO_BYTES).toArray(ValueLayout.JAVA_BYTE));

            IoRequest request = c.newRequest();
            for (int round = 0; round < 3; round++) {
                assertSame(request, c.submitRead(request, 1, 4096, ioBlocks, r, 0));
                request.await();
                assertNull(request.get(60, TimeUnit.SECONDS));
            }
            List<CompletableFuture<Void>> futures = new ArrayList<>();
            for (int i = 0; i < depth; i++) {
                futures.add(c.readAsync(1, 4096 + (long) i * ioBlocks, ioBlocks, r, (long) i * IO_BYTES));
            }
            for (CompletableFuture<Void> f : futures) {
                assertNull(f.get(60, TimeUnit.SECONDS));
            }
            assertNull(c.failure());
        }
    }

    @ParameterizedTest
    @EnumSource(CompletionMode.class)
    void threadsSharingOneQueueEachGetTheirOwnBlocks(CompletionMode mode) throws Exception {
        int threads = 4;
        try (NvmfController c = NvmfController.connect(NvmetRig.options().withProgressThread(true)
                .withCompletionMode(mode));
             IoBuffer w = c.allocateBuffer((long) threads * 128 * 1024);
             IoBuffer r = c.allocateBuffer((long) threads * 128 * 1024)) {
            long part = 128 * 1024;
            for (long i = 0; i < w.size(); i++) {
                w.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i / part * 17 + i * 5));
            }
            int bs = c.namespace(1).blockSize();
            List<CompletableFuture<Void>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long offset = t * part;
                runs.add(CompletableFuture.runAsync(() -> {
                    for (int round = 0; round < 5; round++) {
                        c.write(1, 16384 + offset / bs, part / bs, w, offset);
                        c.read(1, 16384 + offset / bs, part / bs, r, offset);
                    }
                }));
            }
            for (CompletableFuture<Void> run : runs) {
                run.get(120, TimeUnit.SECONDS);
            }
            assertArrayEquals(w.segment().toArray(ValueLayout.JAVA_BYTE), r.segment().toArray(ValueLayout.JAVA_BYTE));
            assertNull(c.failure());
        }
    }

    @ParameterizedTest
    @EnumSource(CompletionMode.class)
    void aCallbackCannotWaitForIoOfTheLoopThatRunsIt(CompletionMode mode) throws Exception {
        try (NvmfController c = NvmfController.connect(NvmetRig.options().withProgressThread(true)
                .withCompletionMode(mode));
             IoBuffer buf = c.allocateBuffer(IO_BYTES)) {
            IoRequest inner = c.newRequest();
            c.submitRead(inner, 1, 0, IO_BYTES / c.namespace(1).blockSize(), buf, 0).await();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            assertTrue(c.submitRead(0, 1, 0, IO_BYTES / c.namespace(1).blockSize(), buf, 0, (tag, e) -> {
                try {
                    inner.await(); // done already, but a callback must never wait: it is refused only when in flight
                    c.submitRead(inner, 1, 0, 1, buf, 0);
                    inner.await();
                } catch (Throwable t) {
                    thrown.set(t);
                } finally {
                    done.countDown();
                }
            }, 0));
            assertTrue(done.await(60, TimeUnit.SECONDS));
            assertThrows(IllegalStateException.class, () -> {
                throw thrown.get();
            });
            inner.get(60, TimeUnit.SECONDS);
        }
    }
}
