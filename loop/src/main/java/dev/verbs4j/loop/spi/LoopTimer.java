package dev.verbs4j.loop.spi;

/**
 * A task a loop runs after a delay, made once ({@link LoopEngine#newTimer}) and scheduled again
 * and again with no allocation per run: for timers that tick as often as messages come.
 */
public interface LoopTimer {

    /**
     * Runs the timer's task after {@code delayNanos}, in the loop's passes; moves it if it is
     * queued already.
     *
     * @param delayNanos how long to wait first
     * @throws IllegalStateException outside the loop's passes ({@link LoopEngine#inLoop()})
     */
    void schedule(long delayNanos);
}
