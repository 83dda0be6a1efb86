package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.controller.IoQueue;
import dev.verbs4j.nvmf.queue.NvmfQueue;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A controller's I/O queues, QID 1..N at index 0..N-1, and what is done to all of them: polling
 * (each under its queue's lock; not while a completion loop polls them), failing and closing them. Filled in while the
 * controller connects; a queue not yet connected is null, which only failing and closing meet.
 */
final class IoQueues {
    private final IoQueue[] queues;

    IoQueues(int count) {
        this.queues = new IoQueue[count];
    }

    int count() {
        return queues.length;
    }

    void set(int index, IoQueue queue) {
        queues[index] = queue;
    }

    /** Queue {@code index}; IndexOutOfBoundsException when there is no such queue. */
    IoQueue get(int index) {
        return queues[index];
    }

    /** Commands one queue holds in flight; 0 without I/O queues. */
    int depth() {
        return queues.length == 0 ? 0 : queues[0].queue().commandSlots();
    }

    /** The queue of a key (a thread id): the same key, the same queue. */
    IoQueue forKey(long key) {
        if (queues.length == 0) {
            throw new IllegalStateException("a discovery controller has no I/O queues");
        }
        return queues[(int) Math.floorMod(key, (long) queues.length)];
    }

    /** Drives every queue once; returns the commands completed. */
    int pollAll() {
        int n = 0;
        for (IoQueue q : queues) {
            n += poll(q);
        }
        return n;
    }

    /** Drives one queue once under its lock; a broken queue fails what it has in flight. */
    static int poll(IoQueue q) {
        NvmfQueue nq = q.queue();
        nq.lock().lock();
        try {
            return pollHeld(nq);
        } finally {
            nq.lock().unlock();
        }
    }

    /** Polls a queue whose lock the caller holds; a broken queue fails what it has in flight. */
    private static int pollHeld(NvmfQueue nq) {
        NvmfException f = nq.failure();
        if (f != null && nq.inFlight() > 0) {
            nq.fail(f);
        }
        return nq.poll();
    }

    /** Every waiting and later command of every queue made so far fails with {@code cause}. */
    void markFailed(NvmfException cause) {
        eachMade(q -> q.queue().markFailed(cause));
    }

    /** The first queue's failure, or null while all work. */
    NvmfException failure() {
        for (IoQueue q : queues) {
            NvmfException f = q == null ? null : q.queue().failure();
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    /**
     * Disconnects every queue made so far, each under its lock: a thread submitting to it meanwhile
     * sees it closed, never a QP half taken down. Marked broken first, so waiters let go of the locks.
     */
    void close(Duration disconnectTimeout) {
        eachMade(q -> q.queue().markFailed(new NvmfTransportException(
                "queue " + q.queue().qid() + " is closed")));
        eachMade(q -> {
            NvmfQueue nq = q.queue();
            nq.lock().lock();
            try {
                nq.close(disconnectTimeout);
            } finally {
                nq.lock().unlock();
            }
        });
    }

    /** After {@link #close}: nobody polls a closed controller, so fail what is in flight and no waiter hangs. */
    void failInFlight() {
        eachMade(IoQueues::poll);
    }

    /** Runs {@code action} on each queue connected so far (a failed connect leaves the rest null). */
    private void eachMade(Consumer<IoQueue> action) {
        for (IoQueue q : queues) {
            if (q != null) {
                action.accept(q);
            }
        }
    }
}
