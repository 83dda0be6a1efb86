package dev.verbs4j.loop.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Waiting threads drive the loop. An application thread that waits on one of the loop's futures
 * or for a send credit runs the loop's passes itself ({@link #drive}), spinning or sleeping in
 * epoll_wait as the mode says, while the loop thread naps: as in a C program's one thread, a
 * completion then wakes (or is found by) the thread that waits for it, with no hand-off from the
 * loop thread, and a BUSY process has one spinning thread, not two. Every pass, by the loop
 * thread or a driver, holds the pass lock (also while it sleeps in epoll_wait): callbacks still
 * run one at a time. While drivers come and go the loop thread looks at the sockets and timers
 * every 10 ms; 10 ms after the last driver left it sleeps in epoll_wait again. When no driver
 * left during a whole nap (a thread waits on an idle channel) the loop thread sleeps until the
 * last one leaves: a waiting application thread costs no wake-ups of the loop thread.
 */
final class DriverHandover {
    /**
     * How long the loop thread naps while application threads drive it, and how long after the
     * last one left it takes the loop back. Each nap's end costs a wake-up of the loop thread
     * beside the driver's: a short nap would double the CPU time of an EVENT round trip.
     */
    static final long DRIVEN_NAP_NANOS = 10_000_000L;
    /**
     * A driver's longest sleep in epoll_wait: its future may be completed by a thread that does
     * not wake the loop (a failure found while posting), and it should notice.
     */
    private static final int DRIVER_SLEEP_CAP_MILLIS = 50;
    /** How long a driver waits for the loop thread to leave epoll_wait and hand over the loop. */
    private static final long HANDOVER_WAIT_NANOS = 1_000_000L;
    /**
     * A BUSY driver reads the clock (for its timeout) and its interrupt flag once per this many
     * passes: clock reads are a large share of a spinning round trip's CPU under emulation.
     */
    private static final int SPINS_PER_CLOCK_READ = 64;

    private final DefaultEngine engine;
    private final ReentrantLock pass;
    private final AtomicInteger drivers = new AtomicInteger();
    private volatile long lastDriven = System.nanoTime() - DRIVEN_NAP_NANOS;
    /** Loop thread only: a {@link #lastDriven} already found older than the nap. */
    private long lingerOver = Long.MIN_VALUE;
    /** The loop thread naps (drivers about): a task from another thread unparks it. */
    private volatile boolean napping;
    /** The loop thread sleeps until the last driver leaves ({@link #awaitDriversGone}): that driver unparks it. */
    private volatile boolean sleepsWhileDriven;

    DriverHandover(DefaultEngine engine, ReentrantLock pass) {
        this.engine = engine;
        this.pass = pass;
    }

    /** See {@link dev.verbs4j.loop.spi.LoopEngine#drive}. */
    void drive(BooleanSupplier done, long timeoutNanos) {
        if (done.getAsBoolean() || engine.inLoop() || engine.stopping()) {
            return;
        }
        long start = System.nanoTime();
        boolean busy = engine.spinsAlways();
        drivers.incrementAndGet();
        try {
            int passes = 0;
            while (!done.getAsBoolean() && !engine.stopping()) {
                long left = Long.MAX_VALUE; // a spinning pass never sleeps: it needs no cap
                if (!busy || ++passes % SPINS_PER_CLOCK_READ == 0) {
                    left = timeoutNanos - (System.nanoTime() - start);
                    if (left <= 0 || Thread.currentThread().isInterrupted()) {
                        return;
                    }
                }
                if (!takePass(busy)) {
                    if (!busy) {
                        return;
                    }
                    Thread.onSpinWait();
                    continue;
                }
                try {
                    if (engine.stopped() || done.getAsBoolean()) {
                        return; // completed while this thread waited for the loop
                    }
                    engine.pass(Math.min(DRIVER_SLEEP_CAP_MILLIS, Math.max(1, left / 1_000_000L)) * 1_000_000L);
                } finally {
                    pass.unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lastDriven = System.nanoTime();
            if (drivers.decrementAndGet() == 0 && sleepsWhileDriven) {
                engine.unparkThread(); // it takes the loop back after its linger
            }
        }
    }

    /**
     * Takes the pass lock for a driver. Outside BUSY the loop thread may be asleep in epoll_wait
     * holding it: wake it (it sees a driver and naps) and wait a moment for it to let go.
     */
    private boolean takePass(boolean busy) throws InterruptedException {
        if (pass.tryLock()) {
            return true;
        }
        if (busy) {
            return false;
        }
        engine.wakeup();
        return pass.tryLock(HANDOVER_WAIT_NANOS, TimeUnit.NANOSECONDS);
    }

    /**
     * Loop thread: whether application threads drive the loop now or did within
     * {@link #DRIVEN_NAP_NANOS}: the loop thread naps, looking at the sockets and timers after
     * each nap without sleeping in epoll_wait (which would hold the pass lock from the next
     * driver). An idle loop is never driven: it sleeps.
     */
    boolean driven() {
        if (drivers.get() > 0) {
            return true;
        }
        long last = lastDriven;
        if (last == lingerOver) {
            return false; // no driver since its linger ran out: a spinning loop reads no clock here
        }
        if (System.nanoTime() - last < DRIVEN_NAP_NANOS) {
            return true;
        }
        lingerOver = last;
        return false;
    }

    /**
     * Loop thread, while driven: naps until the next look at the sockets and timers (or, when a
     * driver waited all along, until the last driver leaves), then tries to take the pass lock.
     *
     * @return whether it holds the pass lock now
     */
    boolean napThenTakePass() {
        napping = true;
        long drivenBefore = lastDriven;
        LockSupport.parkNanos(napNanos());
        if (lastDriven == drivenBefore && drivers.get() > 0) {
            awaitDriversGone();
        }
        napping = false;
        return pass.tryLock();
    }

    /** A task must not wait out the nap of a driven loop. */
    boolean napping() {
        return napping;
    }

    /**
     * Loop thread, after a whole nap in which no driver left: a thread has been waiting in
     * {@link #drive} all along (a receive on an idle channel), running the passes itself, so the
     * loop thread sleeps until the last driver leaves, a task comes or the loop closes, instead
     * of looking again every nap. The flag is set before the check and the driver reads it after
     * its decrement: one of the two sees the other.
     */
    private void awaitDriversGone() {
        sleepsWhileDriven = true;
        try {
            while (drivers.get() > 0 && !engine.stopping() && !engine.hasTasks()) {
                LockSupport.park(this);
            }
        } finally {
            sleepsWhileDriven = false;
        }
    }

    /** Until the next look at the sockets and timers, or the end of the last driver's linger. */
    private long napNanos() {
        long sinceLastDriver = System.nanoTime() - lastDriven;
        return drivers.get() > 0 ? DRIVEN_NAP_NANOS : Math.max(1, DRIVEN_NAP_NANOS - sinceLastDriver);
    }
}
