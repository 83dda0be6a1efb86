package dev.verbs4j.loop;

import dev.verbs4j.loop.spi.LoopEngine;
import dev.verbs4j.unix.EventFd;
import dev.verbs4j.unix.Epoll;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CompletionLoop#withoutThread}: a loop whose passes its owner runs, on the owner's thread alone. */
class OwnerRunLoopTest {

    @Test
    void tasksFdsAndTimersRunOnTheOwnersThread() throws Exception {
        CompletionLoop loop = CompletionLoop.withoutThread(CompletionMode.EVENT, Duration.ZERO);
        LoopEngine engine = loop.engine();
        AtomicReference<Thread> taskThread = new AtomicReference<>(), fdThread = new AtomicReference<>(),
                timerThread = new AtomicReference<>();
        CountDownLatch allRan = new CountDownLatch(3);
        Thread owner = Thread.ofPlatform().start(() -> {
            while (loop.isRunning()) {
                engine.runPass(-1);
            }
        });
        try (EventFd ready = new EventFd()) {
            loop.execute(() -> {
                taskThread.set(Thread.currentThread());
                allRan.countDown();
            });
            engine.watch(ready.fd(), Epoll.IN, events -> {
                ready.drain();
                fdThread.set(Thread.currentThread());
                allRan.countDown();
            });
            loop.schedule(Duration.ofMillis(5), () -> {
                timerThread.set(Thread.currentThread());
                allRan.countDown();
            });
            ready.signal(); // the owner sleeps in epoll_wait: the fd ends that sleep
            assertTrue(allRan.await(30, TimeUnit.SECONDS));
            engine.unwatch(ready.fd());
        } finally {
            loop.close();
            owner.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertSame(owner, taskThread.get());
        assertSame(owner, fdThread.get());
        assertSame(owner, timerThread.get());
        assertFalse(owner.isAlive(), "close() from another thread ended the owner's loop at its next pass");
    }

    @Test
    void aPassSleepsAtMostWhatTheOwnerAllowsAndAWakeupEndsItsSleep() throws Exception {
        try (CompletionLoop loop = CompletionLoop.withoutThread(CompletionMode.EVENT, Duration.ZERO)) {
            LoopEngine engine = loop.engine();
            CompletableFuture<Long> slept = new CompletableFuture<>();
            CompletableFuture<Integer> idleWork = new CompletableFuture<>();
            CountDownLatch sleeping = new CountDownLatch(1);
            Thread owner = Thread.ofPlatform().start(() -> {
                engine.runPass(0); // this thread owns the loop from here on
                idleWork.complete(engine.runPass(TimeUnit.MILLISECONDS.toNanos(1)));
                sleeping.countDown();
                long start = System.nanoTime();
                engine.runPass(-1);
                slept.complete(System.nanoTime() - start);
            });
            assertTrue(sleeping.await(30, TimeUnit.SECONDS));
            assertFalse(slept.isDone());
            Thread.sleep(50); // the owner is asleep in epoll_wait (or about to be)
            engine.wakeup();
            assertTrue(slept.get(30, TimeUnit.SECONDS) > 0);
            assertEquals(0, idleWork.get(), "a pass that slept 1 ms on an idle loop found no work");
            owner.join();
        }
    }

    @Test
    void theOwnersThreadCloseEndsItAtOnceAndOtherThreadsNeverRunItsPasses() throws Exception {
        CompletionLoop loop = CompletionLoop.withoutThread(CompletionMode.BUSY_POLL, Duration.ZERO);
        LoopEngine engine = loop.engine();
        engine.runPass(0);
        CompletableFuture<Void> neverDriven = engine.newFuture();
        Thread waiter = Thread.ofPlatform().start(() -> engine.drive(neverDriven::isDone, Long.MAX_VALUE));
        waiter.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(waiter.isAlive(), "drive() returns at once on another thread");
        assertThrows(IllegalStateException.class, () -> {
            try {
                CompletableFuture.runAsync(() -> engine.runPass(0)).join();
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause();
            }
        });
        assertTrue(loop.inLoop());
        loop.close();
        assertFalse(loop.isRunning());
    }

    @Test
    void aPassDoesNotSleepWhenTheOwnerHasWorkByTheTimeItWouldSleep() throws Exception {
        try (CompletionLoop loop = CompletionLoop.withoutThread(CompletionMode.EVENT, Duration.ZERO)) {
            CompletableFuture<Integer> returned = CompletableFuture.supplyAsync(
                    () -> loop.engine().runPass(-1, () -> false)); // nothing would end an unbounded sleep
            assertEquals(0, returned.get(30, TimeUnit.SECONDS));
            loop.execute(() -> { }); // and the next owner's pass ends it on that thread
        }
    }

    @Test
    void aLoopWithItsOwnThreadRefusesAnOwnersPass() {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            assertThrows(IllegalStateException.class, () -> loop.engine().runPass(0));
        }
    }
}
