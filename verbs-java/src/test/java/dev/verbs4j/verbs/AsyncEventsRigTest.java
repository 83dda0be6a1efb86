package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.rig.Commands;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Async events reach the listener of {@link Context#asyncEvents}: an SRQ running below its armed
 * limit, and the port going down and up with its network device.
 */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AsyncEventsRigTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The rig's rxe0 sits on this dummy netdev. */
    private static final String NETDEV = "rig0";

    /** Collects events on the delivery thread; the test takes them with a timeout. */
    private static final class Recorder implements AsyncEventListener {
        final BlockingQueue<AsyncEvent> events = new LinkedBlockingQueue<>();

        @Override
        public void onEvent(AsyncEvent event) {
            events.add(event);
        }

        /** The next event of {@code type}, skipping others (GID changes come with port changes). */
        AsyncEvent next(int type, String what) throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            long left;
            while ((left = deadline - System.nanoTime()) > 0) {
                AsyncEvent e = events.poll(left, TimeUnit.NANOSECONDS);
                if (e != null && e.type() == type) {
                    return e;
                }
            }
            return fail("no " + what + " async event within " + WAIT.toSeconds() + " s");
        }
    }

    @Test
    void srqLimitReachedNamesTheSrq() throws InterruptedException {
        Recorder recorder = new Recorder();
        try (QpLoopback l = QpLoopback.resourcesOnly();
             WorkCompletions wc = new WorkCompletions(1)) {
            l.track(l.ctx.asyncEvents(recorder));
            SharedReceiveQueue srq = l.track(l.pd.createSharedReceiveQueue(8, 1));
            QueuePair a = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA).build()));
            QueuePair b = l.track(l.pd.createQueuePair(
                    QpInitAttributes.builder(QpType.RC, l.cqB).sharedReceiveQueue(srq).build()));
            l.connect(a, 1, b, 2);
            l.connect(b, 2, a, 1);

            PreparedReceive recv = l.track(srq.prepareReceive(4, 1));
            for (int i = 0; i < 4; i++) {
                recv.wrId(i, i).sge(i, 0, l.mrB, i * 64L, 64);
            }
            recv.post();
            srq.armLimit(3); // 4 posted: the event fires once fewer than 3 remain
            PreparedSend send = l.track(a.prepareSend(1, 1));
            send.sge(0, 0, l.mrA, 0, 8);

            send.post(); // 3 left: not below the limit yet
            QpLoopback.awaitSuccess(l.cqB, wc, "the first receive");
            assertTrue(recorder.events.isEmpty(), "no event while 3 receives remain: " + recorder.events);
            send.post(); // 2 left
            QpLoopback.awaitSuccess(l.cqB, wc, "the second receive");

            AsyncEvent e = recorder.next(AsyncEvent.SRQ_LIMIT_REACHED, "SRQ limit reached");
            assertTrue(e.concerns(srq), "the event names our SRQ: " + e);
            assertEquals(0, e.port());
            assertTrue(e.name().contains("limit"), e.name());
            assertEquals(0, srq.query().limit(), "the device disarms the limit when it fires");
        }
    }

    @Test
    void portGoesDownAndComesBackWithItsNetdev() throws InterruptedException {
        Recorder recorder = new Recorder();
        try (Context ctx = RdmaTestSupport.openDevice()) {
            String gidsBefore = gids(ctx);
            GidEntry chosenBefore = ctx.chooseGid(QpLoopback.PORT, GidChooser.preferRoceV2Ipv4());
            try (AsyncEvents ignored = ctx.asyncEvents(recorder)) {
                try {
                    Commands.run("ip", "link", "set", NETDEV, "down");
                    AsyncEvent down = recorder.next(AsyncEvent.PORT_ERR, "port error");
                    assertEquals(QpLoopback.PORT, down.port());
                    assertTrue(down.isPortEvent());
                    assertFalse(ctx.queryPort(QpLoopback.PORT).isActive(), "port is down");

                    Commands.run("ip", "link", "set", NETDEV, "up");
                    AsyncEvent up = recorder.next(AsyncEvent.PORT_ACTIVE, "port active");
                    assertEquals(QpLoopback.PORT, up.port());
                } finally {
                    // later tests need the port as it was: bring it back even when the test failed
                    Commands.run("ip", "link", "set", NETDEV, "up");
                    awaitCondition(() -> ctx.queryPort(QpLoopback.PORT).isActive(), "port 1 ACTIVE again");
                    awaitCondition(() -> gids(ctx).equals(gidsBefore), "the GID table restored:\n" + gidsBefore);
                }
            }
            GidEntry chosenAfter = ctx.chooseGid(QpLoopback.PORT, GidChooser.preferRoceV2Ipv4());
            assertEquals(chosenBefore.index(), chosenAfter.index());
        }
    }

    /** The GID table as text: GidEntry compares its bytes by identity. */
    private static String gids(Context ctx) {
        List<GidEntry> table = ctx.gidTable(QpLoopback.PORT);
        return table.stream().map(g -> g.index() + " " + HexFormat.of().formatHex(g.gid()) + " " + g.type()
                + " " + g.netdev()).collect(Collectors.joining("\n"));
    }

    private static void awaitCondition(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not restored within 30 s: " + what);
            }
            Thread.sleep(100);
        }
    }
}
