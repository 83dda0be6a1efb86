package dev.verbs4j.guest.channel;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.loop.spi.LoopEngine;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Back-pressure: one credit per send-queue slot. Taking one waits while the queue is full, up
 * to a timeout (driving the loop meanwhile, {@link LoopEngine#drive}); on the completion
 * loop thread it never waits, since only that thread can free slots.
 */
public final class ChannelSendCredits {
    private final Semaphore credits;
    private final int depth;
    private final Duration timeout;
    private final LoopEngine loop;
    private final AtomicInteger waiters = new AtomicInteger();

    ChannelSendCredits(int depth, Duration timeout, LoopEngine loop) {
        this.credits = new Semaphore(depth);
        this.depth = depth;
        this.timeout = timeout;
        this.loop = loop;
    }

    /** Takes a credit or throws SEND_QUEUE_FULL. */
    void acquire() {
        if (credits.tryAcquire()) {
            return;
        }
        if (loop.inLoop()) {
            throw full("the completion loop thread cannot wait for it");
        }
        waiters.incrementAndGet();
        try {
            loop.drive(this::available, timeout.toNanos());
            if (!credits.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw full("no slot freed within " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw full("interrupted while waiting for a slot");
        } finally {
            waiters.decrementAndGet();
        }
    }

    /** Whether a thread waits for a slot (or for all of them, in close): send completions must wake the loop. */
    public boolean hasWaiters() {
        return waiters.get() > 0;
    }

    private boolean available() {
        return credits.availablePermits() > 0;
    }

    /** Takes a credit if one is free. */
    boolean tryAcquire() {
        return credits.tryAcquire();
    }

    void release() {
        credits.release();
    }

    /** Credits taken and not yet given back: sends in flight. */
    int inFlight() {
        return depth - credits.availablePermits();
    }

    /** Waits until every send has completed (or the timeout passes); true when none is left. */
    boolean awaitIdle(Duration wait) {
        waiters.incrementAndGet();
        try {
            loop.drive(() -> inFlight() == 0, wait.toNanos());
            if (credits.tryAcquire(depth, wait.toNanos(), TimeUnit.NANOSECONDS)) {
                credits.release(depth);
                return true;
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            waiters.decrementAndGet();
        }
    }

    private ChannelException full(String why) {
        return new ChannelException(ChannelError.SEND_QUEUE_FULL, "send queue full (" + depth + " in flight): " + why);
    }
}
