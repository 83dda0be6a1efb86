package dev.verbs4j.guest.loop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * A future completed by a {@link CompletionLoop}. Waiting on it ({@code get}, {@code join})
 * first lets the loop drive its completions from the waiting thread ({@link CompletionLoop#drive}):
 * in BUSY mode an application thread that waits polls the CQs itself, as a C program's one
 * thread does, instead of parking until the spinning loop thread wakes it. Stages made from it
 * are of this kind too, so waiting on those drives the same way.
 */
final class LoopFuture<T> extends CompletableFuture<T> implements BooleanSupplier {
    private final CompletionLoop loop;

    LoopFuture(CompletionLoop loop) {
        this.loop = loop;
    }

    @Override
    public boolean getAsBoolean() {
        return isDone();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        loop.drive(this, Long.MAX_VALUE);
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long start = System.nanoTime();
        long nanos = unit.toNanos(timeout);
        loop.drive(this, nanos);
        return super.get(Math.max(0, nanos - (System.nanoTime() - start)), TimeUnit.NANOSECONDS);
    }

    @Override
    public T join() {
        loop.drive(this, Long.MAX_VALUE);
        return super.join();
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new LoopFuture<>(loop);
    }
}
