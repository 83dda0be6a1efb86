package dev.verbs4j.loop;

import dev.verbs4j.loop.spi.LoopTimer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link LoopTimer} and {@link LoopTimer#schedule}: one timer, scheduled again and again. */
class LoopTimerTest {

    @Test
    void aTimerRescheduledFromItsOwnRunTicksAgainAndAgain() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            AtomicInteger ticks = new AtomicInteger();
            CountDownLatch tenTicks = new CountDownLatch(1);
            LoopTimer[] timer = new LoopTimer[1];
            timer[0] = loop.engine().newTimer(() -> {
                if (ticks.incrementAndGet() < 10) {
                    timer[0].schedule(50_000); // shorter than epoll_wait's millisecond
                } else {
                    tenTicks.countDown();
                }
            });
            loop.execute(() -> timer[0].schedule(50_000));
            assertTrue(tenTicks.await(60, TimeUnit.SECONDS), "ticks: " + ticks.get());
            assertEquals(10, ticks.get());
        }
    }

    @Test
    void aQueuedTimerScheduledAgainIsMovedNotDoubled() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            AtomicInteger runs = new AtomicInteger();
            LoopTimer timer = loop.engine().newTimer(runs::incrementAndGet);
            AtomicInteger runsBeforeItsNewDeadline = new AtomicInteger(-1);
            CountDownLatch done = new CountDownLatch(1);
            loop.execute(() -> { // the heap orders these by deadline: no clock decides the outcome
                timer.schedule(TimeUnit.MILLISECONDS.toNanos(1));
                timer.schedule(TimeUnit.MILLISECONDS.toNanos(100)); // moved later
                loop.schedule(Duration.ofMillis(50), () -> runsBeforeItsNewDeadline.set(runs.get()));
                loop.schedule(Duration.ofMillis(300), done::countDown);
            });
            assertTrue(done.await(60, TimeUnit.SECONDS));
            assertEquals(0, runsBeforeItsNewDeadline.get(), "the first deadline was dropped, not kept beside the new");
            assertEquals(1, runs.get(), "the timer ran once, at its new deadline");
        }
    }

    @Test
    void schedulingOutsideTheLoopIsRefused() {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            assertThrows(IllegalStateException.class, () -> loop.engine().newTimer(() -> { }).schedule(1_000));
        }
    }
}
