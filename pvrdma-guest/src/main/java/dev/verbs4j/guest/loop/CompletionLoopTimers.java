package dev.verbs4j.guest.loop;

import java.util.PriorityQueue;
import org.slf4j.LoggerFactory;

/** The loop's deadline heap: what is due runs on the loop thread; the nearest deadline bounds its wait. */
final class CompletionLoopTimers {
    private record Timer(long deadline, long order, Runnable task) implements Comparable<Timer> {
        @Override
        public int compareTo(Timer o) {
            int c = Long.compare(deadline, o.deadline);
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }

    private final PriorityQueue<Timer> heap = new PriorityQueue<>();
    private long added;

    void add(long deadlineNanos, Runnable task) {
        heap.add(new Timer(deadlineNanos, added++, task));
    }

    /** Runs what is due at {@code now}; returns how many ran. */
    int runDue(long now) {
        int n = 0;
        Timer t;
        while ((t = heap.peek()) != null && t.deadline - now <= 0) {
            heap.poll();
            n++;
            try {
                t.task.run();
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(CompletionLoopTimers.class).warn("a timed completion loop task failed", e);
            }
        }
        return n;
    }

    /** Milliseconds to the nearest deadline, rounded up (epoll's unit); -1 when there is none. */
    int millisToNext(long now) {
        Timer t = heap.peek();
        if (t == null) {
            return -1;
        }
        long nanos = Math.max(0, t.deadline - now);
        return (int) Math.min(Integer.MAX_VALUE, (nanos + 999_999) / 1_000_000);
    }
}
