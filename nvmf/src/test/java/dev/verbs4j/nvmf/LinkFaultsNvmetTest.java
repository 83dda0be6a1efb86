package dev.verbs4j.nvmf;

import static dev.verbs4j.nvmf.ReconnectNvmetTest.log;
import static dev.verbs4j.nvmf.ReconnectNvmetTest.reconnecting;
import static dev.verbs4j.nvmf.WriteWorkload.waitFor;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.verbs4j.nvmf.types.ControllerState;
import dev.verbs4j.rig.LinkFaults;
import dev.verbs4j.rig.ReliabilityRow;
import dev.verbs4j.rig.RigEnvironment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The link between initiator and target failing: our controller on rxe2 (10.78.0.2) connected to
 * the target's port 2 on rxe1 (10.78.0.1), every frame across the veth pair v1/v0. With netem
 * dropping them all for seconds under a verified random-write workload, the controller notices (a
 * Keep Alive or a write unanswered), reconnects once the frames pass again, and every write the API
 * acknowledged reads back, by us and by the kernel initiator; with the frames lost beyond the loss
 * timeout the held I/O fails with ControllerLostException.
 */
@Tag("rdma-nvmet")
class LinkFaultsNvmetTest {
    private static final String ACROSS_THE_VETH = "NVMe-oF host rxe2 to nvmet rxe1, across the veth";
    private HangWatchdog watchdog;

    @BeforeAll
    static void netem() {
        LinkFaults.requireNetem();
    }

    @BeforeEach
    void watch(TestInfo test) {
        watchdog = new HangWatchdog(test.getDisplayName(), 60, "link-faults-threads.txt");
    }

    @AfterEach
    void unwatch() {
        watchdog.close();
    }

    private static LinkFaults hostEnd() {
        return new LinkFaults(null, RigEnvironment.current().nvmetLinkNetdevs().get(1));
    }

    private static LinkFaults targetEnd() {
        return new LinkFaults(null, RigEnvironment.current().nvmetLinkNetdevs().get(0));
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyFrameLostForSecondsMidWorkloadLosesNoAcknowledgedWrite() throws Exception {
        try (LinkFaults target = targetEnd(); LinkFaults host = hostEnd()) {
            target.installNetem();
            host.installNetem();
            faultMidWorkload("100 % loss both ways", () -> {
                target.netem("loss 100%");
                host.netem("loss 100%");
            }, () -> {
                log("netem: " + host.stats().lines().filter(l -> l.contains("dropped")).findFirst().orElse("").strip());
                target.netem("loss 0%");
                host.netem("loss 0%");
            });
        }
    }

    /**
     * The fault from {@code inject} stays until the controller has noticed it and one reconnect
     * attempt has met it, then {@code repair} ends it.
     */
    private static void faultMidWorkload(String fault, Runnable inject, Runnable repair) throws Exception {
        try (NvmfController c = NvmfController.connect(reconnecting(NvmetRig.linkOptions(), Duration.ofSeconds(60)));
             WriteWorkload w = WriteWorkload.start(c)) {
            w.awaitMore(300, Duration.ofSeconds(20), "300 writes before the fault");
            long before = w.writes();
            log(fault + " after " + before + " writes");
            long t0 = System.nanoTime();
            inject.run();
            waitFor(() -> c.state() == ControllerState.RECONNECTING, Duration.ofSeconds(20), "RECONNECTING");
            long noticed = System.nanoTime();
            log("RECONNECTING: " + c.lastTransportFailure().getMessage());
            waitFor(() -> System.nanoTime() - noticed > TimeUnit.SECONDS.toNanos(2), Duration.ofSeconds(3), "");
            repair.run();
            long repaired = System.nanoTime();
            waitFor(() -> c.state() == ControllerState.LIVE, Duration.ofSeconds(30), "LIVE again");
            long live = System.nanoTime();
            long atLive = w.writes();
            w.awaitMore(300, Duration.ofSeconds(20), "300 writes after the reconnect");
            w.stopAndVerify();
            assertNull(c.failure());
            w.verifyThroughKernel();
            System.out.printf("%s: noticed %d ms after the fault, repaired %d ms after that, LIVE %d ms after the "
                            + "repair; %d writes before the fault, %d during, %d after; %d units checked twice%n",
                    fault, (noticed - t0) / 1_000_000, (repaired - noticed) / 1_000_000, (live - repaired) / 1_000_000,
                    before, atLive - before, w.writes() - atLive, w.unitsWritten());
            ReliabilityRow.print(ACROSS_THE_VETH, fault + " mid random-write workload",
                    "once, " + (repaired - t0) / 1_000_000 + " ms", w.writes(),
                    2L * w.unitsWritten() * WriteWorkload.UNIT, 0,
                    "reconnected, LIVE " + (live - repaired) / 1_000_000 + " ms after the repair; read back by us and the kernel");
        }
    }

    /**
     * The frames lost for good, as behind a link that stays down: the held I/O fails once the loss
     * timeout's attempts are spent. Not the link taken down itself: rxe on 6.1 puts a device's QP1 in
     * error for good when a MAD finds no route, as nvmet's disconnects do on a downed end, and its
     * stuck teardown then slows every later connect to the target (ci/README.md).
     */
    @Test
    @Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void framesLostBeyondTheLossTimeoutFailHeldIoWithControllerLost() throws Exception {
        try (LinkFaults target = targetEnd(); LinkFaults host = hostEnd()) {
            target.installNetem();
            host.installNetem();
            lostBeyondTheLossTimeout(target, host);
        }
    }

    private static void lostBeyondTheLossTimeout(LinkFaults target, LinkFaults host) throws Exception {
        try (NvmfController c = NvmfController.connect(reconnecting(NvmetRig.linkOptions(), Duration.ofSeconds(2)));
             IoBuffer buf = c.allocateBuffer((long) WriteWorkload.UNIT * 8);
             IoBuffer one = c.allocateBuffer(WriteWorkload.UNIT)) {
            int perUnit = WriteWorkload.UNIT / c.namespace(1).blockSize();
            c.write(1, WriteWorkload.REGION_LBA, perUnit, buf, 0);
            log("100 % loss both ways for good");
            long t0 = System.nanoTime();
            target.netem("loss 100%");
            host.netem("loss 100%");
            HeldIo held = new HeldIo(c, perUnit, buf, one);
            // the I/O's or the Keep Alive's 5 s timeout, taking 3 queues down (1 s each at most, no
            // DISCONNECTED comes back), then 2 attempts a second apart, each bounded by the 5 s timeout
            held.assertAllLost(Duration.ofSeconds(40));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("frames lost for good: %d held commands failed %d ms after the loss began: %s "
                    + "(the failure that started it: %s)%n", held.count(), ms, c.failure().getMessage(),
                    c.lastTransportFailure().getMessage());
            ReliabilityRow.print(ACROSS_THE_VETH, "100 % loss both ways for good (loss timeout 2 s)", "once",
                    held.count(), (long) held.count() * WriteWorkload.UNIT, 0,
                    "held I/O failed ControllerLostException " + ms + " ms after the loss began");
        }
    }
}
