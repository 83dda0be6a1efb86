package dev.verbs4j.examples.quickstart;

import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.WorkCompletions;
import java.time.Duration;

/** The one loop every quick-start needs: poll a CQ until a completion arrives, and check it. */
final class Completions {
    /** Long enough for an emulated test machine; a real one answers in microseconds. */
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private Completions() {}

    /**
     * Busy-polls {@code cq} for one completion (into {@code wc}, which holds at least one) and
     * throws when it failed or none came within {@link #TIMEOUT}.
     */
    static void awaitOne(CompletionQueue cq, WorkCompletions wc, String what) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no completion for " + what + " within " + TIMEOUT);
            }
            Thread.onSpinWait();
        }
        if (!wc.isSuccess(0)) {
            throw new IllegalStateException(what + " failed: " + wc.statusEnum(0));
        }
    }
}
