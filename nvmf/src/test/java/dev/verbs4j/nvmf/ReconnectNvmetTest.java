package dev.verbs4j.nvmf;

import static dev.verbs4j.nvmf.WriteWorkload.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.nvmf.types.ControllerLostException;
import dev.verbs4j.nvmf.types.ControllerState;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.rig.Commands;
import dev.verbs4j.rig.ReliabilityRow;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The target's port taken away (its subsystem link removed through configfs) under a random-write
 * workload: the controller reconnects once the port is back and every write the API acknowledged
 * reads back, by us and by the kernel initiator; and with the port gone for good the held I/O fails
 * with ControllerLostException once the loss timeout's attempts are spent.
 */
@Tag("rdma-nvmet")
class ReconnectNvmetTest {
    private static final String ON_RXE0 = "NVMe-oF host to nvmet, both on rxe0";
    private static final int UNIT = WriteWorkload.UNIT;
    private static final long REGION_LBA = WriteWorkload.REGION_LBA;
    private static final int ASYNC_DEPTH = 8;

    private HangWatchdog watchdog;

    @BeforeEach
    void watch(TestInfo test) {
        watchdog = new HangWatchdog(test.getDisplayName(), 50, "reconnect-threads.txt");
    }

    @AfterEach
    void unwatch() {
        watchdog.close();
    }

    static void log(String what) {
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

    static NvmfConnectOptions reconnecting(NvmfConnectOptions o, Duration lossTimeout) {
        return o.withIoQueues(2).withKeepAlive(Duration.ofSeconds(2)).withTimeout(Duration.ofSeconds(5))
                .withReconnectDelay(Duration.ofSeconds(1)).withControllerLossTimeout(lossTimeout);
    }

    private static NvmfConnectOptions reconnecting(Duration lossTimeout) {
        return reconnecting(NvmetRig.options(), lossTimeout);
    }

    /**
     * The port's removal disconnects the target's queues (nvmet deletes the port's controllers):
     * rdma_cm's DISCONNECTED starts the reconnect, not the keep-alive.
     */
    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void portRemovedAndReAddedMidWorkloadLosesNoAcknowledgedWrite() throws Exception {
        try (NvmfController c = NvmfController.connect(reconnecting(Duration.ofSeconds(60)));
             WriteWorkload w = WriteWorkload.start(c)) {
            int firstCntlid = c.controllerId();
            try {
                w.awaitMore(500, Duration.ofSeconds(20), "500 writes before the fault");
                long t0 = System.nanoTime();
                log("removing the port after " + w.writes() + " writes");
                removePort();
                waitFor(() -> c.state() == ControllerState.RECONNECTING, Duration.ofSeconds(15), "RECONNECTING");
                long detected = System.nanoTime();
                long during = w.writes();
                // Keep the port away for two reconnect delays: at least one attempt finds nothing.
                waitFor(() -> System.nanoTime() - detected > TimeUnit.SECONDS.toNanos(2), Duration.ofSeconds(3), "");
                log("RECONNECTING (" + c.lastTransportFailure().getMessage() + "); restoring the port");
                restorePort();
                long back = System.nanoTime();
                waitFor(() -> c.state() == ControllerState.LIVE, Duration.ofSeconds(20), "LIVE again");
                long live = System.nanoTime();
                long atLive = w.writes();
                log("LIVE again");
                w.awaitMore(500, Duration.ofSeconds(20), "500 writes after the reconnect");
                System.out.printf("reconnect: failure seen %d ms after the port went, port back after %d ms, "
                                + "live %d ms after that; %d writes before, %d after; cntlid %d then %d%n",
                        (detected - t0) / 1_000_000, (back - detected) / 1_000_000, (live - back) / 1_000_000,
                        during, w.writes() - atLive, firstCntlid, c.controllerId());
                assertTrue(c.lastTransportFailure().getMessage().contains("rdma_cm reported DISCONNECTED"),
                        c.lastTransportFailure()::getMessage);
            } finally {
                restorePort();
            }
            log("workload ended; reading back");
            w.stopAndVerify();
            assertNull(c.failure());
            log("kernel initiator reading back");
            w.verifyThroughKernel();
            ReliabilityRow.print(ON_RXE0, "nvmet port removed and re-added mid random-write workload", "once",
                    w.writes(), 2L * w.unitsWritten() * UNIT, 0, "reconnected; read back by us and the kernel");
        }
    }

    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void portGoneForGoodFailsHeldIoWithControllerLostWithinTheBound() throws Exception {
        try (NvmfController c = NvmfController.connect(reconnecting(Duration.ofSeconds(3)));
             IoBuffer buf = c.allocateBuffer((long) UNIT * ASYNC_DEPTH);
             IoBuffer one = c.allocateBuffer(UNIT)) {
            int perUnit = UNIT / c.namespace(1).blockSize();
            c.write(1, REGION_LBA, perUnit, buf, 0);
            long t0 = System.nanoTime();
            try {
                log("removing the port for good");
                removePort();
                // DISCONNECTED at once (the port's removal disconnects the queues), taking the queues down,
                // then 3 attempts a second apart, each bounded by the 5 s timeout
                HeldIo held = new HeldIo(c, perUnit, buf, one);
                held.assertAllLost(Duration.ofSeconds(45));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertThrows(ControllerLostException.class, () -> c.read(1, REGION_LBA, perUnit, buf, 0));
                System.out.printf("controller lost %d ms after the port went: %s%n", ms, c.failure().getMessage());
                ReliabilityRow.print(ON_RXE0, "nvmet port removed for good (loss timeout 3 s)", "once",
                        held.count(), (long) held.count() * UNIT, 0,
                        "held I/O failed ControllerLostException " + ms + " ms after the port went");
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
