package dev.verbs4j.guest.loop;

import java.util.Comparator;
import java.util.PriorityQueue;
import org.slf4j.LoggerFactory;

/** The loop's deadline heap: what is due runs on the loop thread; the nearest deadline bounds its wait. */
final class CompletionLoopTimers {
    private static final Comparator<LoopTimer> DUE_FIRST =
            Comparator.<LoopTimer>comparingLong(t -> t.deadline).thenComparingLong(t -> t.order);

    private final PriorityQueue<LoopTimer> heap = new PriorityQueue<>(DUE_FIRST);
    private long added;

    void add(long deadlineNanos, Runnable task) {
        add(new LoopTimer(task), deadlineNanos);
    }

    /** Queues {@code timer} for {@code deadlineNanos}; one already queued is moved there. */
    void add(LoopTimer timer, long deadlineNanos) {
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
        LoopTimer t;
        while ((t = heap.peek()) != null && t.deadline - now <= 0) {
            heap.poll();
            t.queued = false;
            n++;
            try {
                t.task.run();
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(CompletionLoopTimers.class).warn("a timed completion loop task failed", e);
            }
        }
        return n;
    }

    /** Nanoseconds to the nearest deadline (0 if it is due); -1 when there is none. */
    long nanosToNext(long now) {
        LoopTimer t = heap.peek();
        return t == null ? -1 : Math.max(0, t.deadline - now);
    }
}
