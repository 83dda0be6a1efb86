package dev.verbs4j.guest.loop;

/**
 * A task a loop runs after a delay, made once and scheduled again and again
 * ({@link CompletionLoop#scheduleInLoop}) with no allocation per run: for timers that tick as
 * often as messages come.
 */
public final class LoopTimer {
    final Runnable task;
    long deadline;
    long order;
    /** In the loop's deadline heap now; loop passes only. */
    boolean queued;

    /**
     * A timer that runs {@code task} on the loop each time it is due.
     *
     * @param task what to run; it must not block
     */
    public LoopTimer(Runnable task) {
        this.task = task;
    }
}
