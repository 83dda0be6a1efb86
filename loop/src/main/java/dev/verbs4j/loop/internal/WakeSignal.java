package dev.verbs4j.loop.internal;

import dev.verbs4j.unix.EventFd;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How other threads wake a sleeping loop. {@link #nextWakeup} is AWAKE while the loop runs and
 * the deadline it sleeps to while it is about to block. A thread that wants the loop to look
 * swaps in AWAKE and writes the eventfd only when it was not AWAKE already: at most one write
 * per sleep, none while the loop is awake.
 */
final class WakeSignal implements AutoCloseable {
    static final long AWAKE = -1L, NO_DEADLINE = Long.MAX_VALUE;

    private final AtomicLong nextWakeup = new AtomicLong(AWAKE);
    private final EventFd eventFd = new EventFd();
    private final AtomicLong writes = new AtomicLong();

    int fd() {
        return eventFd.fd();
    }

    /** Wakes a loop that sleeps or is about to; false when it was awake (nothing written). */
    boolean wake() {
        if (nextWakeup.getAndSet(AWAKE) == AWAKE) {
            return false;
        }
        writes.incrementAndGet();
        eventFd.signal();
        return true;
    }

    /** The loop is about to sleep until {@code deadline} ({@link #NO_DEADLINE} for none). */
    void sleepsUntil(long deadline) {
        nextWakeup.set(deadline);
    }

    void awake() {
        nextWakeup.set(AWAKE);
    }

    /** AWAKE, or the deadline the loop sleeps to. */
    long nextWakeup() {
        return nextWakeup.get();
    }

    void drain() {
        eventFd.drain();
    }

    long writes() {
        return writes.get();
    }

    @Override
    public void close() {
        eventFd.close();
    }
}
