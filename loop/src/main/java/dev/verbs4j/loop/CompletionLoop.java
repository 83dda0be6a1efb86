package dev.verbs4j.loop;

import dev.verbs4j.loop.internal.DefaultEngine;
import dev.verbs4j.loop.spi.LoopEngine;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One platform thread that takes completions for any number of channels (or NVMe-oF queues) and
 * delivers them to their futures and listeners. It waits in exactly one place, one epoll set
 * holding the completion-channel fd of every device its CQs signal, an eventfd that other
 * threads signal for tasks, wake-ups and close, and every socket it serves; its nearest timer's
 * deadline is the wait's time-out, so an idle loop sleeps until something happens.
 *
 * <p>{@link CompletionMode} decides how it waits: BUSY spins, EVENT sleeps with its CQs armed,
 * ADAPTIVE spins for its budget after the last work and then sleeps. An application thread that
 * waits for one of the loop's operations runs the loop's passes itself meanwhile (as a C
 * program's one thread would), so a completion wakes the thread that waits for it, with no
 * hand-off from the loop thread.
 *
 * <p>An application shares one loop among several channels by starting it first, giving it to
 * their configuration, and closing it after them. Thread-safe.
 */
public final class CompletionLoop implements Executor, AutoCloseable {
    private static final Duration DEFAULT_SPIN = Duration.ofMillis(1);

    private final CompletionMode mode;
    private final DefaultEngine engine;

    private CompletionLoop(CompletionMode mode, Duration spin, boolean ownThread) {
        this.mode = mode;
        long spinNanos = mode == CompletionMode.EVENT ? 0 : spin.toNanos();
        this.engine = new DefaultEngine(mode.label(), mode == CompletionMode.BUSY_POLL, spinNanos, ownThread);
    }

    /**
     * Starts a loop; ADAPTIVE spins for 1 ms after the last completion before it sleeps.
     *
     * @param mode how the loop waits
     * @return the running loop; the caller closes it, after the channels that use it
     */
    public static CompletionLoop start(CompletionMode mode) {
        return start(mode, DEFAULT_SPIN);
    }

    /**
     * Starts a loop with a chosen ADAPTIVE spin budget.
     *
     * @param mode how the loop waits
     * @param spin ADAPTIVE's spin budget after the last completion (ignored by the other modes)
     * @return the running loop; the caller closes it, after the channels that use it
     */
    public static CompletionLoop start(CompletionMode mode, Duration spin) {
        CompletionLoop loop = new CompletionLoop(mode, spin, true);
        loop.engine.start();
        return loop;
    }

    /**
     * A loop without a thread of its own, for another framework's event loop to run (Netty's,
     * through verbs4j's transport for it): the thread that runs its first pass is its thread from
     * then on, and every callback of the channels on it runs there, one at a time. Tasks and
     * close work from any thread as on a started loop; application threads that wait on its
     * futures wait for the owner's passes and never run them. Closing it on the owner's thread
     * ends it at once, from another thread at the owner's next pass.
     *
     * @param mode how its passes wait: BUSY never sleeps, EVENT sleeps in epoll_wait, ADAPTIVE
     *             spins for {@code spin} after its last work and then sleeps
     * @param spin ADAPTIVE's spin budget (ignored by the other modes)
     * @return the loop, waiting for its owner's first pass; the owner closes it
     */
    public static CompletionLoop withoutThread(CompletionMode mode, Duration spin) {
        CompletionLoop loop = new CompletionLoop(mode, spin, false);
        loop.engine.start();
        return loop;
    }

    /**
     * How this loop waits.
     *
     * @return the mode it was started in
     */
    public CompletionMode mode() {
        return mode;
    }

    /**
     * Whether the loop thread still runs.
     *
     * @return false once the loop stopped
     */
    public boolean isRunning() {
        return engine.isRunning();
    }

    /**
     * Whether the caller runs the loop: on its own thread, or an application thread driving it
     * (where callbacks run and nothing may block).
     *
     * @return true on the loop thread, or inside a driving thread's pass
     */
    public boolean inLoop() {
        return engine.inLoop();
    }

    /**
     * Runs {@code task} on the loop soon; any thread.
     *
     * @param task what to run; it must not block
     * @throws RejectedExecutionException when the loop is stopped
     */
    @Override
    public void execute(Runnable task) {
        engine.execute(task);
    }

    /**
     * Runs {@code task} on the loop after {@code delay}; any thread.
     *
     * @param delay how long to wait first
     * @param task  what to run; it must not block
     * @throws RejectedExecutionException when the loop is stopped
     */
    public void schedule(Duration delay, Runnable task) {
        engine.schedule(delay, task);
    }

    /**
     * What verbs4j's transports plug into the loop with. Its package is exported to them only:
     * applications do not need it.
     *
     * @return the loop's engine
     */
    public LoopEngine engine() {
        return engine;
    }

    /** Stops the thread (bounded wait) and closes the devices; channels should be closed first. Idempotent. */
    @Override
    public void close() {
        engine.close();
    }

    @Override
    public String toString() {
        return "CompletionLoop[" + engine.threadName() + "]";
    }
}
