package dev.verbs4j.loop.internal;

import java.util.Comparator;
import java.util.PriorityQueue;
import org.slf4j.LoggerFactory;

/** The loop's deadline heap: what is due runs on the loop thread; the nearest deadline bounds its wait. */
final class LoopTimers {
    private static final Comparator<HeapTimer> DUE_FIRST =
            Comparator.<HeapTimer>comparingLong(t -> t.deadline).thenComparingLong(t -> t.order);

    private final PriorityQueue<HeapTimer> heap = new PriorityQueue<>(DUE_FIRST);
    private long added;

    /** Queues {@code timer} for {@code deadlineNanos}; one already queued is moved there. */
    void add(HeapTimer timer, long deadlineNanos) {
        if (timer.queued) {
            heap.remove(timer);
        }
        timer.deadline = deadlineNanos;
        timer.order = added++;
        timer.queued = true;
        heap.add(timer);
    }

    /** Runs what is due at {@code now}; returns how many ran. */
    int runDue(long now) {
        int n = 0;
        HeapTimer t;
        while ((t = heap.peek()) != null && t.deadline - now <= 0) {
            heap.poll();
            t.queued = false;
            n++;
            try {
                t.task.run();
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(LoopTimers.class).warn("a timed completion loop task failed", e);
            }
        }
        return n;
    }

    /** Nanoseconds to the nearest deadline (0 if it is due); -1 when there is none. */
    long nanosToNext(long now) {
        HeapTimer t = heap.peek();
        return t == null ? -1 : Math.max(0, t.deadline - now);
    }
}
