package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.rig.Commands;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The progress thread (the controller's completion loop) in event mode (no spin): it completes
 * asynchronous I/O with nobody polling, sleeps on the completion channel when idle, fails what is
 * in flight when the controller breaks, and ends with close.
 */
@Tag("rdma-nvmet")
class ProgressThreadNvmetTest {
    private static NvmfConnectOptions eventDriven() {
        return NvmetRig.options().withProgressThread(true).withProgressSpin(Duration.ZERO);
    }

    @Test
    void asyncIoCompletesOnTheProgressThreadWithNobodyPolling() throws Exception {
        int depth = 16;
        try (NvmfController c = NvmfController.connect(eventDriven());
             IoBuffer w = c.allocateBuffer(depth * 4096L);
             IoBuffer r = c.allocateBuffer(depth * 4096L)) {
            for (long i = 0; i < w.size(); i++) {
                w.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 3));
            }
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < depth; i++) {
                writes.add(c.writeAsync(1, 4096 + i * 8L, 8, w, i * 4096L));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            // Callbacks run on the thread that polls: here only the progress thread does.
            AtomicReference<String> callbackThread = new AtomicReference<>();
            AtomicReference<NvmfException> error = new AtomicReference<>();
            CountDownLatch reads = new CountDownLatch(depth);
            IoCallback done = (tag, e) -> {
                callbackThread.set(Thread.currentThread().getName());
                if (e != null) {
                    error.set(e);
                }
                reads.countDown();
            };
            for (int i = 0; i < depth; i++) {
                assertTrue(c.submitRead(0, 1, 4096 + i * 8L, 8, r, i * 4096L, done, i));
            }
            assertTrue(reads.await(60, TimeUnit.SECONDS), "reads still in flight after 60 s");
            assertNull(error.get());
            assertArrayEquals(w.segment().toArray(ValueLayout.JAVA_BYTE), r.segment().toArray(ValueLayout.JAVA_BYTE));
            assertEquals(c.loop().threadName(), callbackThread.get());
            assertNull(c.failure());
        }
    }

    /** An idle controller's loop sleeps until there is work: its thread is not switched in. */
    @Test
    void anIdleControllerDoesNotWakeItsProgressThread() throws Exception {
        try (NvmfController c = NvmfController.connect(eventDriven());
             IoBuffer buf = c.allocateBuffer(4096)) {
            c.readAsync(1, 0, 8, buf, 0).get(60, TimeUnit.SECONDS); // this thread drove the loop meanwhile
            Path task = progressTask(c.loop().threadName());
            settle(c); // past the loop's linger after its last driver, however late a loaded machine runs it
            long before = contextSwitches(task);
            Thread.sleep(2000); // the quiet period being measured, not a wait for another process
            long woken = contextSwitches(task) - before;
            assertTrue(woken <= 5, "the idle progress thread was switched in " + woken + " times in 2 s");
            c.readAsync(1, 0, 8, buf, 0).get(60, TimeUnit.SECONDS); // and still wakes for work
        }
    }

    @Test
    void asyncIoInFlightFailsWhenTheTargetGoesAndCloseEndsTheThread() throws Exception {
        String link = "/sys/kernel/config/nvmet/ports/1/subsystems/" + NvmetRig.nqn();
        NvmfController c = NvmfController.connect(eventDriven().withKeepAlive(Duration.ofSeconds(5))
                .withControllerLossTimeout(Duration.ZERO)); // no reconnect: the first failure breaks it
        String progressThread = c.loop().threadName();
        try (IoBuffer buf = c.allocateBuffer(4096)) {
            c.readAsync(1, 0, 8, buf, 0).get(60, TimeUnit.SECONDS);
            Commands.run("rm", link);
            // Commands submitted now may never be answered: the keep-alive failure must wake the
            // sleeping progress thread, which fails them.
            List<CompletableFuture<Void>> lost = new ArrayList<>();
            for (int i = 0; i < 4 && c.failure() == null; i++) {
                try {
                    lost.add(c.readAsync(1, 0, 8, buf, 0));
                } catch (NvmfException alreadyBroken) {
                    break;
                }
            }
            for (CompletableFuture<Void> f : lost) {
                try {
                    f.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    assertInstanceOf(NvmfException.class, e.getCause());
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (c.failure() == null && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertInstanceOf(NvmfTransportException.class, c.failure());
        } finally {
            c.close();
            Commands.sh("[[ -e '" + link + "' ]] || ln -s /sys/kernel/config/nvmet/subsystems/" + NvmetRig.nqn()
                    + " /sys/kernel/config/nvmet/ports/1/subsystems/");
        }
        assertFalse(alive(progressThread), "close left the progress thread running");
        try (NvmfController again = NvmfController.connect(eventDriven())) {
            assertEquals(NvmetRig.nqn(), again.identity().subsystemNqn());
        }
    }

    /** Waits until the loop's wake-up count has not moved for 200 ms; a loop that keeps waking fails. */
    private static void settle(NvmfController c) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long last = c.loop().engine().wakeups();
        while (System.nanoTime() < deadline) {
            Thread.sleep(200); // the quiet period looked for
            long now = c.loop().engine().wakeups();
            if (now == last) {
                return;
            }
            last = now;
        }
        fail("the progress thread's loop kept waking for 10 s (" + last + " wake-ups)");
    }

    private static boolean alive(String threadName) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().equals(threadName));
    }

    /** The progress thread's /proc task directory: its comm is the thread name cut to 15 bytes. */
    private static Path progressTask(String threadName) throws IOException {
        String wanted = threadName.substring(0, Math.min(15, threadName.length()));
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            List<Path> found = tasks.filter(t -> wanted.equals(read(t.resolve("comm")).strip())).toList();
            if (found.size() != 1) {
                fail("expected one task named '" + wanted + "', found " + found);
            }
            return found.getFirst();
        }
    }

    private static long contextSwitches(Path task) {
        long n = 0;
        for (String line : read(task.resolve("status")).split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                n += Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        return n;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + p, e);
        }
    }
}
