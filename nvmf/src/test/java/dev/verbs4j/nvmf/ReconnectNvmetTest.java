package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.nvmf.types.ControllerLostException;
import dev.verbs4j.rig.Commands;
import dev.verbs4j.nvmf.types.ControllerState;
import dev.verbs4j.nvmf.types.NvmfException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
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
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Test;

/**
 * The target's port taken away (its subsystem link removed through configfs) under a random-write
 * workload: the controller reconnects once the port is back and every write the API acknowledged
 * reads back, by us and by the kernel initiator; and with the port gone for good the held I/O fails
 * with ControllerLostException once the loss timeout's attempts are spent.
 */
@Tag("rdma-nvmet")
class ReconnectNvmetTest {
    private static final int UNIT = 4096;
    /** 4 KiB units from this LBA on: the workload's region, apart from what other tests write. */
    private static final long REGION_LBA = 65536;
    private static final int UNITS = 512;
    private static final int ASYNC_DEPTH = 8;

    private Thread watchdog;

    /** A test that hangs leaves its threads' stacks behind (printed and in target/), then fails on its timeout. */
    @BeforeEach
    void watch(TestInfo test) {
        watchdog = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(50));
            } catch (InterruptedException done) {
                return;
            }
            StringBuilder b = new StringBuilder(test.getDisplayName()).append(" still running after 50 s\n");
            Thread.getAllStackTraces().forEach((t, stack) -> {
                b.append(t).append('\n');
                for (StackTraceElement e : stack) {
                    b.append("    at ").append(e).append('\n');
                }
            });
            System.out.println(b);
            try {
                Files.writeString(Path.of("target", "reconnect-threads.txt"), b);
            } catch (IOException ignored) {
                // printed above
            }
        });
    }

    @AfterEach
    void unwatch() {
        watchdog.interrupt();
    }

    private static void log(String what) {
        System.out.println(java.time.LocalTime.now() + " " + what);
    }

    private static String link() {
        return "/sys/kernel/config/nvmet/ports/1/subsystems/" + NvmetRig.nqn();
    }

    private static void removePort() {
        Commands.run("rm", link());
    }

    private static void restorePort() {
        Commands.sh("[[ -e '" + link() + "' ]] || ln -s /sys/kernel/config/nvmet/subsystems/" + NvmetRig.nqn()
                + " /sys/kernel/config/nvmet/ports/1/subsystems/");
    }

    private static NvmfConnectOptions reconnecting(Duration lossTimeout) {
        return NvmetRig.options().withIoQueues(2).withKeepAlive(Duration.ofSeconds(2)).withTimeout(Duration.ofSeconds(5))
                .withReconnectDelay(Duration.ofSeconds(1)).withControllerLossTimeout(lossTimeout);
    }

    /** Unit u's content for its write number seq: the pair in every long, so a torn or stale unit shows. */
    private static void fill(MemorySegment s, long at, int unit, long seq) {
        long v = ((long) unit << 40) | seq;
        for (int i = 0; i < UNIT; i += 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, at + i, v);
        }
    }

    private static void waitFor(BooleanSupplier condition, Duration bound, String what) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + " not within " + bound);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void portRemovedAndReAddedMidWorkloadLosesNoAcknowledgedWrite() throws Exception {
        long[] acked = new long[UNITS]; // the seq of each unit's last acknowledged write, 0: never written
        try (NvmfController c = NvmfController.connect(reconnecting(Duration.ofSeconds(60)));
             IoBuffer syncBuf = c.allocateBuffer(UNIT);
             IoBuffer asyncBuf = c.allocateBuffer((long) UNIT * ASYNC_DEPTH);
             IoBuffer check = c.allocateBuffer((long) UNIT * UNITS)) {
            int bs = c.namespace(1).blockSize();
            int perUnit = UNIT / bs;
            assertTrue(c.namespace(1).size() >= REGION_LBA + (long) UNITS * perUnit, "namespace too small");
            int firstCntlid = c.controllerId();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService workers = Executors.newFixedThreadPool(2); // both at once, whatever the common pool's size
            AtomicLong writes = new AtomicLong();
            // Synchronous writes to the even units, asynchronous batches to the odd ones: disjoint, so each
            // unit has one writer and its last acknowledged write is what it must hold.
            CompletableFuture<Void> sync = CompletableFuture.runAsync(() -> {
                SplittableRandom r = new SplittableRandom(1);
                for (long seq = 1; !stop.get(); seq++) {
                    int u = 2 * r.nextInt(UNITS / 2);
                    fill(syncBuf.segment(), 0, u, seq);
                    c.write(1, REGION_LBA + (long) u * perUnit, perUnit, syncBuf, 0);
                    acked[u] = seq;
                    writes.incrementAndGet();
                }
            }, workers);
            CompletableFuture<Void> async = CompletableFuture.runAsync(() -> {
                SplittableRandom r = new SplittableRandom(2);
                for (long seq = 1; !stop.get(); seq++) {
                    List<CompletableFuture<Void>> batch = new ArrayList<>();
                    int[] units = new int[ASYNC_DEPTH];
                    for (int i = 0; i < ASYNC_DEPTH; i++) {
                        units[i] = 2 * ((UNITS / 2 / ASYNC_DEPTH) * i + r.nextInt(UNITS / 2 / ASYNC_DEPTH)) + 1;
                        fill(asyncBuf.segment(), (long) i * UNIT, units[i], seq);
                        batch.add(c.writeAsync(1, REGION_LBA + (long) units[i] * perUnit, perUnit, asyncBuf,
                                (long) i * UNIT));
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
            }, workers);
            try {
                waitFor(() -> writes.get() > 500, Duration.ofSeconds(20), "500 writes before the fault");
                long t0 = System.nanoTime();
                log("removing the port after " + writes.get() + " writes");
                removePort();
                waitFor(() -> c.state() == ControllerState.RECONNECTING, Duration.ofSeconds(15), "RECONNECTING");
                long detected = System.nanoTime();
                long during = writes.get();
                // Keep the port away for two reconnect delays: at least one attempt finds nothing.
                waitFor(() -> System.nanoTime() - detected > TimeUnit.SECONDS.toNanos(2), Duration.ofSeconds(3), "");
                log("RECONNECTING; restoring the port");
                restorePort();
                long back = System.nanoTime();
                waitFor(() -> c.state() == ControllerState.LIVE, Duration.ofSeconds(20), "LIVE again");
                long live = System.nanoTime();
                long atLive = writes.get();
                log("LIVE again");
                waitFor(() -> writes.get() > atLive + 500, Duration.ofSeconds(20), "500 writes after the reconnect");
                System.out.printf("reconnect: failure seen %d ms after the port went, port back after %d ms, "
                                + "live %d ms after that; %d writes before, %d after; cntlid %d then %d%n",
                        (detected - t0) / 1_000_000, (back - detected) / 1_000_000, (live - back) / 1_000_000,
                        during, writes.get() - atLive, firstCntlid, c.controllerId());
            } finally {
                stop.set(true);
                restorePort();
            }
            sync.get(30, TimeUnit.SECONDS);
            async.get(30, TimeUnit.SECONDS);
            workers.shutdown();
            log("workload ended; reading back");
            assertNull(c.failure());
            c.read(1, REGION_LBA, (long) UNITS * perUnit, check, 0);
            assertUnits(acked, check.segment());
        }
        log("kernel initiator reading back");
        Path dev = NvmetRig.kernelConnect();
        try (RandomAccessFile f = new RandomAccessFile(dev.toFile(), "r")) {
            byte[] region = new byte[UNIT * UNITS];
            f.seek(REGION_LBA * blockSizeOf(dev));
            f.readFully(region);
            assertUnits(acked, MemorySegment.ofArray(region));
        } finally {
            NvmetRig.kernelDisconnect();
        }
    }

    private static int blockSizeOf(Path dev) {
        return Integer.parseInt(Commands.sh("cat /sys/block/" + dev.getFileName() + "/queue/logical_block_size").strip());
    }

    private static void assertUnits(long[] acked, MemorySegment data) {
        int written = 0;
        for (int u = 0; u < acked.length; u++) {
            if (acked[u] == 0) {
                continue;
            }
            written++;
            long expected = ((long) u << 40) | acked[u];
            for (int i = 0; i < UNIT; i += 8) {
                long got = data.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) u * UNIT + i);
                if (got != expected) {
                    throw new AssertionError("unit " + u + " byte " + i + ": 0x" + Long.toHexString(got)
                            + ", the last acknowledged write was 0x" + Long.toHexString(expected));
                }
            }
        }
        assertTrue(written > UNITS / 2, "only " + written + " units written");
    }

    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void portGoneForGoodFailsHeldIoWithControllerLostWithinTheBound() throws Exception {
        try (NvmfController c = NvmfController.connect(reconnecting(Duration.ofSeconds(3)));
             IoBuffer buf = c.allocateBuffer((long) UNIT * ASYNC_DEPTH)) {
            int perUnit = UNIT / c.namespace(1).blockSize();
            c.write(1, REGION_LBA, perUnit, buf, 0);
            long t0 = System.nanoTime();
            try {
                log("removing the port for good");
                removePort();
                List<CompletableFuture<Void>> held = new ArrayList<>();
                for (int i = 0; i < ASYNC_DEPTH; i++) {
                    held.add(c.writeAsync(1, REGION_LBA + (long) i * perUnit, perUnit, buf, (long) i * UNIT));
                }
                CompletableFuture<Void> syncRead = CompletableFuture.runAsync(() -> c.read(1, REGION_LBA, perUnit,
                        c.allocateBuffer(UNIT), 0));
                // keep-alive (2 s, its command's 5 s timeout) + taking the queues down + 3 attempts a second
                // apart, each bounded by the 5 s timeout
                waitFor(() -> {
                    c.poll();
                    return held.stream().allMatch(CompletableFuture::isDone) && syncRead.isDone();
                }, Duration.ofSeconds(45), "held I/O failed");
                long ms = (System.nanoTime() - t0) / 1_000_000;
                for (CompletableFuture<Void> f : held) {
                    Throwable e = assertThrows(Exception.class, f::join).getCause();
                    assertInstanceOf(ControllerLostException.class, e, () -> String.valueOf(e));
                }
                Throwable e = assertThrows(Exception.class, syncRead::join).getCause();
                assertInstanceOf(ControllerLostException.class, e, () -> String.valueOf(e));
                assertEquals(ControllerState.LOST, c.state());
                assertNotNull(c.failure());
                assertThrows(ControllerLostException.class, () -> c.read(1, REGION_LBA, perUnit, buf, 0));
                System.out.printf("controller lost %d ms after the port went: %s%n", ms, c.failure().getMessage());
            } finally {
                restorePort();
            }
        }
        try (NvmfController again = NvmfController.connect(NvmetRig.options())) {
            assertEquals(NvmetRig.nqn(), again.identity().subsystemNqn());
        }
    }

    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void closeWhileReconnectingFailsHeldIoPromptly() throws Exception {
        NvmfController c = NvmfController.connect(reconnecting(Duration.ofSeconds(-1)));
        try (IoBuffer buf = c.allocateBuffer(UNIT)) {
            int perUnit = UNIT / c.namespace(1).blockSize();
            c.write(1, REGION_LBA, perUnit, buf, 0);
            removePort();
            waitFor(() -> {
                c.poll();
                return c.state() == ControllerState.RECONNECTING;
            }, Duration.ofSeconds(15), "RECONNECTING");
            CompletableFuture<Void> held = c.writeAsync(1, REGION_LBA, perUnit, buf, 0);
            long t0 = System.nanoTime();
            c.close();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(held.isDone(), "close left a held write pending");
            Throwable e = assertThrows(Exception.class, held::join).getCause();
            assertInstanceOf(NvmfException.class, e);
            assertTrue(e.getMessage().contains("closed while reconnecting"), e::getMessage);
            assertEquals(ControllerState.CLOSED, c.state());
            System.out.printf("close while reconnecting: %d ms%n", ms);
        } finally {
            c.close();
            restorePort();
        }
    }
}
