package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ibv_destroy_cq waits until every event taken from the channel has been acknowledged. The CQ
 * acknowledges in batches of 64 and the rest on close, so a CQ that delivered 70 events (one full
 * batch and 6 left over) and was never acknowledged by hand still closes.
 */
@Tag("rdma")
class CompletionEventAckRigTest {
    private static final int EVENTS = 70;

    @Test
    void closesAfterManyUnacknowledgedEvents() throws InterruptedException {
        QpLoopback l = QpLoopback.connected(QpType.RC, QpCapabilities.small(), true);
        try (WorkCompletions wc = new WorkCompletions(1)) {
            PreparedReceive recv = l.track(l.b.prepareReceive(1, 1));
            recv.sge(0, 0, l.mrB, 0, 64);
            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            send.sge(0, 0, l.mrA, 0, 8).flags(0, SendFlag.mask(SendFlag.SIGNALED));
            for (int i = 0; i < EVENTS; i++) {
                recv.wrId(0, i).post();
                l.cqB.requestNotification(false);
                send.wrId(0, i).post();
                assertSame(l.cqB, l.channel.await(QpLoopback.TIMEOUT), "event " + i + " names the receive CQ");
                QpLoopback.awaitSuccess(l.cqB, wc, "receive " + i);
                assertEquals(i, wc.wrId(0));
                QpLoopback.awaitSuccess(l.cqA, wc, "send " + i);
            }
        } catch (RuntimeException | Error e) {
            l.close();
            throw e;
        }
        // a hang in ibv_destroy_cq would block forever: close on a daemon thread and bound the wait
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread closer = Thread.ofPlatform().daemon().name("cq-closer").start(() -> {
            try {
                l.close();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        closer.join(QpLoopback.TIMEOUT);
        if (closer.isAlive()) {
            fail("closing the CQs did not finish within " + QpLoopback.TIMEOUT.toSeconds()
                    + " s: ibv_destroy_cq is waiting for unacknowledged events");
        }
        if (failure.get() != null) {
            throw new AssertionError("closing failed", failure.get());
        }
        assertTrue(l.cqB.isClosed(), "the receive CQ is closed");
    }
}
