package dev.verbs4j.loop.spi;

import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.WorkCompletions;

/** A completion queue a loop polls, and who handles what it yields. */
public interface CompletionSource {

    /**
     * The queue to poll.
     *
     * @return the completion queue, owned by the source
     */
    CompletionQueue queue();

    /**
     * Handles the {@code batch.count()} completions just polled; runs in the loop's passes.
     *
     * @param batch the completions, valid only during this call
     */
    void deliver(WorkCompletions batch);

    /**
     * Whether a thread waits now for a completion of this source's own requests (sends,
     * one-sided operations): on its future ({@link LoopEngine#isAwaited}) or for a send slot.
     * If not, a loop about to sleep arms the CQ for solicited completions only: it wakes for the
     * peer's messages (sent solicited) and not for its own send completions, which it takes on
     * its next pass, at the latest {@link LoopEngine#OWN_COMPLETIONS_MAX_DELAY_MILLIS} ms
     * later while {@link #hasOwnInFlight}. That halves the wake-ups of a request/response
     * exchange, where a send's completion comes back after the sender went to sleep.
     *
     * @return true (the default) to be woken by every completion
     */
    default boolean awaitsOwnCompletions() {
        return true;
    }

    /**
     * Whether requests of its own are in flight (their completions still to come).
     *
     * @return true if so; by default false (with {@link #awaitsOwnCompletions} true by default,
     *         it is not asked)
     */
    default boolean hasOwnInFlight() {
        return false;
    }
}
