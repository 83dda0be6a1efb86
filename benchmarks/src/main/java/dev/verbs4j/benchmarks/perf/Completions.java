package dev.verbs4j.benchmarks.perf;

import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.WorkCompletions;
import java.time.Duration;

/**
 * Takes completions off one CQ, by busy polling or by sleeping on the completion channel (-e),
 * and fails loudly on any unsuccessful one. Allocates nothing per completion in busy mode.
 */
final class Completions implements AutoCloseable {
    private static final Duration EVENT_WAIT = Duration.ofSeconds(1);
    /** A peer that stops answering should end the run, not hang it. */
    private static final long GIVE_UP_NANOS = 60_000_000_000L;

    private final CompletionQueue cq;
    private final CompletionChannel channel;
    private final WorkCompletions batch;

    Completions(CompletionQueue cq, CompletionChannel channel, int batchSize) {
        this.cq = cq;
        this.channel = channel;
        this.batch = new WorkCompletions(batchSize);
    }

    /** Returns at least one completion, waiting as long as needed; read them from {@link #batch()}. */
    int await() {
        return await(batch.capacity());
    }

    /** As {@link #await()}, taking no more than {@code max} (at most the batch's capacity). */
    int await(int max) {
        int n = cq.poll(batch, max);
        if (n == 0) {
            n = channel == null ? spin(max) : sleep(max);
        }
        check(n);
        return n;
    }

    /** Whatever is there now, possibly nothing. */
    int pollNow() {
        int n = cq.poll(batch);
        check(n);
        return n;
    }

    WorkCompletions batch() {
        return batch;
    }

    private int spin(int max) {
        long start = System.nanoTime();
        int spins = 0;
        int n;
        while ((n = cq.poll(batch, max)) == 0) {
            if (++spins == 1 << 20) { // checking the clock every spin would cost more than the poll
                spins = 0;
                if (System.nanoTime() - start > GIVE_UP_NANOS) {
                    throw new IllegalStateException("no completion for 60 s: the peer stopped or the QP is stuck");
                }
            }
        }
        return n;
    }

    private int sleep(int max) {
        long start = System.nanoTime();
        while (true) {
            cq.requestNotification(false);
            int n = cq.poll(batch, max); // a completion that arrived before arming raises no event
            if (n > 0) {
                return n;
            }
            if (channel.await(EVENT_WAIT) == null && System.nanoTime() - start > GIVE_UP_NANOS) {
                throw new IllegalStateException("no completion event for 60 s: the peer stopped or the QP is stuck");
            }
            n = cq.poll(batch, max);
            if (n > 0) {
                return n;
            }
        }
    }

    private void check(int n) {
        for (int i = 0; i < n; i++) {
            if (!batch.isSuccess(i)) {
                throw new IllegalStateException("work request " + batch.wrId(i) + " completed with "
                        + batch.statusEnum(i) + " (vendor error 0x" + Integer.toHexString(batch.vendorError(i)) + ")");
            }
        }
    }

    @Override
    public void close() {
        batch.close();
    }
}
