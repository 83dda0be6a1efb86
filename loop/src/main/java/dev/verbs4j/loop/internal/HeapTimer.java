package dev.verbs4j.loop.internal;

import dev.verbs4j.loop.spi.LoopTimer;

/** A timer in a loop's deadline heap ({@link LoopTimers}): made once, queued again and again. */
final class HeapTimer implements LoopTimer {
    private final DefaultEngine engine;
    final Runnable task;
    long deadline;
    long order;
    /** In the loop's deadline heap now; loop passes only. */
    boolean queued;

    HeapTimer(DefaultEngine engine, Runnable task) {
        this.engine = engine;
        this.task = task;
    }

    @Override
    public void schedule(long delayNanos) {
        engine.scheduleInLoop(this, delayNanos);
    }
}
