package dev.verbs4j.loop.spi;

/**
 * Work a loop finds by reading memory rather than a completion queue: a ring in memory shared
 * with another process. The loop polls it in every pass, as it polls its CQs; before it sleeps
 * it arms it ({@link #arm}: the source asks its peer to make one of the loop's watched fds readable when new
 * work lands) and polls once more, so work that landed before the peer saw the request is not
 * left waiting for a wake-up that does not come.
 */
public interface MemorySource {

    /**
     * Takes what has arrived; runs in the loop's passes.
     *
     * @return the work done: 0 when there was none
     */
    int poll();

    /**
     * The loop is about to sleep: ask to be woken by new work (the loop polls once more after
     * this, then sleeps). Until the next {@link #poll} finds work the request may stay set.
     */
    void arm();

    /**
     * Whether requests of this source's own are in flight whose completion nobody asked to be
     * woken for: the loop then sleeps at most {@link LoopEngine#OWN_COMPLETIONS_MAX_DELAY_MILLIS}.
     *
     * @return false by default
     */
    default boolean hasUnwatchedOwnRequests() {
        return false;
    }
}
