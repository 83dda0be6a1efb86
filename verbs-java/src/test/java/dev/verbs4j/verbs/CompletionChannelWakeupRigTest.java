package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A blocked CompletionChannel.await can be ended from another thread, and the channel keeps working after. */
@Tag("rdma")
class CompletionChannelWakeupRigTest {

    @Test
    void wakeupEndsABlockedAwaitAndEventsStillArriveAfterIt() throws Exception {
        QpLoopback l = QpLoopback.connected(QpType.RC, QpCapabilities.small(), true);
        try (WorkCompletions wc = new WorkCompletions(1)) {
            l.cqB.requestNotification(false);
            CompletableFuture<CompletionQueue> waited = CompletableFuture.supplyAsync(
                    () -> l.channel.await(Duration.ofMinutes(10)));
            // the await may not have started yet: either way it must end with null, not after 10 minutes
            l.channel.wakeup();
            assertNull(waited.get(60, TimeUnit.SECONDS), "a woken await reports no event");
            assertFalse(l.cqB.isClosed());

            PreparedReceive recv = l.track(l.b.prepareReceive(1, 1));
            recv.sge(0, 0, l.mrB, 0, 64).wrId(0, 7).post();
            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            send.sge(0, 0, l.mrA, 0, 8).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(0, 7).post();
            assertSame(l.cqB, l.channel.await(QpLoopback.TIMEOUT), "the real event still comes through");
            QpLoopback.awaitSuccess(l.cqB, wc, "receive");
            assertEquals(7, wc.wrId(0));
            QpLoopback.awaitSuccess(l.cqA, wc, "send");
        } finally {
            l.close();
        }
    }
}
