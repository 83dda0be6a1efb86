package dev.verbs4j.loop.internal;

import dev.verbs4j.loop.spi.CompletionSource;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.WorkCompletions;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The completion queues a loop polls, and how each is armed since its last event. A CQ is armed
 * for solicited completions only (the peer's messages) while nobody waits for the completion of
 * a request of its own ({@link CompletionSource#awaitsOwnCompletions}). Loop passes only.
 */
final class CqTable implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CqTable.class);
    private static final int UNARMED = 0, ARMED_SOLICITED = 1, ARMED_ALL = 2;

    /** A polled CQ and how it is armed since its last event (an event will come for which completions). */
    private static final class Queue {
        final CompletionSource source;
        int armed = UNARMED;

        Queue(CompletionSource source) {
            this.source = source;
        }
    }

    private final List<Queue> queues = new ArrayList<>();
    private final WorkCompletions batch = new WorkCompletions(32);

    void add(CompletionSource source) {
        queues.add(new Queue(source));
    }

    void remove(CompletionSource source) {
        queues.removeIf(q -> q.source == source);
    }

    /** Drains every CQ; returns how many completions were handled. */
    int pollAll() {
        int total = 0;
        for (int i = 0; i < queues.size(); i++) {
            Queue q = queues.get(i);
            int n;
            while ((n = poll(q.source)) > 0) {
                q.source.deliver(batch);
                total += n;
                if (i >= queues.size() || queues.get(i) != q) {
                    break; // the delivery ended its channel and removed the source
                }
            }
        }
        return total;
    }

    private int poll(CompletionSource source) {
        try {
            return source.queue().poll(batch);
        } catch (RuntimeException e) {
            LOG.warn("polling a completion queue failed", e);
            return 0;
        }
    }

    /**
     * Arms the CQs that are not armed (or armed for solicited completions only while someone now
     * waits for all: asking again for every completion widens it); returns whether it armed any.
     */
    boolean armAll() {
        boolean armedAny = false;
        for (int i = 0; i < queues.size(); i++) {
            Queue q = queues.get(i);
            int wanted = q.source.awaitsOwnCompletions() ? ARMED_ALL : ARMED_SOLICITED;
            if (q.armed < wanted) {
                try {
                    q.source.queue().requestNotification(wanted == ARMED_SOLICITED);
                    q.armed = wanted;
                    armedAny = true;
                } catch (RuntimeException e) {
                    LOG.warn("arming a completion queue failed", e);
                }
            }
        }
        return armedAny;
    }

    /** A CQ event was taken: that CQ is no longer armed. */
    void eventFor(CompletionQueue cq) {
        for (int i = 0; i < queues.size(); i++) {
            Queue q = queues.get(i);
            if (q.source.queue() == cq) {
                q.armed = UNARMED;
                return;
            }
        }
    }

    /** Whether a CQ armed for solicited completions only has requests of its own in flight. */
    boolean ownRequestsUnwatched() {
        for (int i = 0; i < queues.size(); i++) {
            Queue q = queues.get(i);
            if (q.armed == ARMED_SOLICITED && q.source.hasOwnInFlight()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        batch.close();
    }
}
