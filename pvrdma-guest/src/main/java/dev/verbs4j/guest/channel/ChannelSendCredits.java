package dev.verbs4j.guest.channel;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.loop.spi.LoopEngine;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
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
    /** What runs when a slot comes free after {@link #wantSpace}, in the loop's passes. */
    private final Runnable spaceFreed;
    /** How a slot freed outside the loop's passes gets there: the loop's task queue. */
    private final Executor loopTasks;
    /** An offer found no credit: the next one given back is announced ({@link #spaceFreed}). */
    private volatile boolean spaceWanted;

    ChannelSendCredits(int depth, Duration timeout, LoopEngine loop, Executor loopTasks, Runnable spaceFreed) {
        this.credits = new Semaphore(depth);
        this.depth = depth;
        this.timeout = timeout;
        this.loop = loop;
        this.spaceFreed = spaceFreed;
        this.loopTasks = loopTasks;
    }

    /**
     * A sender that does not wait found no credit: announce the next one given back. A credit
     * given back between the refusal and here is announced at once.
     */
    void wantSpace() {
        spaceWanted = true;
        if (credits.availablePermits() > 0) {
            announceSpace();
        }
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

    /**
     * Whether a thread waits for a slot (or for all of them, in close), or a refused offer waits
     * for one to be announced: send completions must wake the loop.
     */
    public boolean hasWaiters() {
        return waiters.get() > 0 || spaceWanted;
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
        if (spaceWanted) {
            announceSpace();
        }
    }

    private void announceSpace() {
        spaceWanted = false;
        if (loop.inLoop()) {
            spaceFreed.run();
        } else {
            try {
                loopTasks.execute(spaceFreed); // never waits: the releasing thread may hold the channel's locks
            } catch (RejectedExecutionException stopped) {
                // the loop is gone, and the channel with it: nobody is left to tell
            }
        }
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
