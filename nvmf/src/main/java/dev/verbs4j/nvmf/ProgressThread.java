package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.verbs.CompletionChannel;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The thread that completes a controller's asynchronous I/O when the caller does not poll
 * ({@link NvmfConnectOptions#withProgressThread}): it polls while commands complete or, with
 * commands in flight, for the spin budget; then arms every I/O queue's CQ, polls once more (a
 * completion between the last poll and the arm raises no event) and sleeps on the completion
 * channel. A completion, {@link #wake()} or {@link #stop()} wakes it.
 */
final class ProgressThread {
    private final IoQueues io;
    private final CompletionChannel events;
    private final long spinNanos;
    private final Supplier<NvmfException> failure;
    private final Thread thread;
    private volatile boolean closing;

    private ProgressThread(String name, IoQueues io, CompletionChannel events, Duration spin,
                           Supplier<NvmfException> failure) {
        this.io = io;
        this.events = events;
        this.spinNanos = spin.toNanos();
        this.failure = failure;
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::run);
    }

    /**
     * @param name    the thread's name
     * @param io      the queues it polls
     * @param events  their completion channel, on which it sleeps
     * @param spin    how long it polls with commands in flight before it sleeps
     * @param failure the controller's failure, or null while it works: a broken controller does not spin
     */
    static ProgressThread start(String name, IoQueues io, CompletionChannel events, Duration spin,
                                Supplier<NvmfException> failure) {
        ProgressThread p = new ProgressThread(name, io, events, spin, failure);
        p.thread.start();
        return p;
    }

    boolean is(Thread t) {
        return thread == t;
    }

    /** Wakes it from its sleep: a failed queue's commands are failed by its next poll. */
    void wake() {
        events.wakeup();
    }

    /** Ends it and waits (at most 10 s) until it has. */
    void stop() {
        closing = true;
        wake();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        long quietSince = System.nanoTime();
        while (!closing) {
            if (io.pollAll() > 0) {
                quietSince = System.nanoTime();
                continue;
            }
            if (io.inFlight() > 0 && failure.get() == null && System.nanoTime() - quietSince < spinNanos) {
                Thread.onSpinWait();
                continue;
            }
            if (io.armAll() > 0 || closing) {
                quietSince = System.nanoTime();
                continue;
            }
            events.awaitUninterruptibly(-1); // no periodic wake-ups: stop() and a failure call wake()
            quietSince = System.nanoTime();
        }
    }
}
