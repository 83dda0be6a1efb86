package dev.verbs4j.loop.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * A future completed by a loop. Waiting on it ({@code get}, {@code join})
 * first lets the loop drive its completions from the waiting thread ({@link DefaultEngine#drive}):
 * in BUSY mode an application thread that waits polls the CQs itself, as a C program's one
 * thread does, instead of parking until the spinning loop thread wakes it. Stages made from it
 * are of this kind too, so waiting on those drives the same way.
 */
final class LoopFuture<T> extends CompletableFuture<T> implements BooleanSupplier {
    private final DefaultEngine loop;
    /** Someone waited on it or looked whether it is done: its completion should wake the loop. */
    private volatile boolean awaited;

    LoopFuture(DefaultEngine loop) {
        this.loop = loop;
    }

    /**
     * Whether a thread waits or waited on it, or polled it. Stages made from it do not count:
     * they may only care about failure ({@code exceptionally}), and a sleeping loop serves them
     * within {@link dev.verbs4j.loop.spi.LoopEngine#OWN_COMPLETIONS_MAX_DELAY_MILLIS} anyway.
     */
    boolean awaited() {
        return awaited;
    }

    @Override
    public boolean getAsBoolean() {
        return super.isDone();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        awaited = true;
        loop.drive(this, Long.MAX_VALUE);
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        awaited = true;
        long start = System.nanoTime();
        long nanos = unit.toNanos(timeout);
        loop.drive(this, nanos);
        if (super.isDone()) {
            return super.get(); // no second clock read when driving completed it
        }
        return super.get(Math.max(0, nanos - (System.nanoTime() - start)), TimeUnit.NANOSECONDS);
    }

    @Override
    public T join() {
        awaited = true;
        loop.drive(this, Long.MAX_VALUE);
        return super.join();
    }

    /** Polling counts as waiting: a loop asleep for solicited completions only is woken to arm for all. */
    @Override
    public boolean isDone() {
        boolean done = super.isDone();
        if (!done) {
            polled();
        }
        return done;
    }

    @Override
    public T getNow(T valueIfAbsent) {
        if (!super.isDone()) {
            polled();
        }
        return super.getNow(valueIfAbsent);
    }

    @Override
    public State state() {
        State state = super.state();
        if (state == State.RUNNING) {
            polled();
        }
        return state;
    }

    private void polled() {
        if (!awaited) {
            awaited = true;
            loop.wakeup();
        }
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new LoopFuture<>(loop);
    }
}
