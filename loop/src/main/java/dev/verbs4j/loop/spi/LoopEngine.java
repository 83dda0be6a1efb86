package dev.verbs4j.loop.spi;

import dev.verbs4j.verbs.CompletionChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * What the transports plug into a loop with: fds in its epoll set, completion queues it polls,
 * timers, the devices it shares, and the futures a waiting thread drives the loop through. Got
 * from {@code CompletionLoop.engine()}; exported only to verbs4j's transport modules.
 *
 * <p>Threads: every method may be called from any thread unless it says otherwise; the handlers
 * and sources run in the loop's passes, one at a time, on the loop thread or on an application
 * thread that drives the loop ({@link #drive}).
 */
public interface LoopEngine {
    /**
     * How long a loop armed for solicited completions only sleeps at most while a source's own
     * requests are in flight: nobody waits for them, but a stage made from one (or a thread on
     * a stage) should see it complete.
     */
    int OWN_COMPLETIONS_MAX_DELAY_MILLIS = 2;

    /**
     * Whether the caller runs the loop's passes: on its own thread, or an application thread
     * driving it (where callbacks run and nothing may block).
     *
     * @return true inside the loop's passes
     */
    boolean inLoop();

    /**
     * Whether the loop spins all the time (BUSY): it never sleeps, and a driver never hands over.
     *
     * @return true for a BUSY loop
     */
    boolean spinsAlways();

    /**
     * How long the loop spins after its last piece of work before it blocks: ADAPTIVE's budget,
     * 0 for EVENT (and meaningless for BUSY, which always spins).
     *
     * @return nanoseconds
     */
    long spinNanos();

    /**
     * A future for an operation this loop completes: a thread that waits on it drives the loop
     * meanwhile ({@link #drive}).
     *
     * @param <T> the result type
     * @return a new incomplete future
     */
    <T> CompletableFuture<T> newFuture();

    /**
     * Whether a thread waits for {@code future}, or polled it: what a
     * {@link CompletionSource#awaitsOwnCompletions} asks of its operations.
     *
     * @param future a future, usually from {@link #newFuture}
     * @return true if its completion should wake a sleeping loop at once (always, for a future
     *         not made by a loop)
     */
    boolean isAwaited(CompletableFuture<?> future);

    /**
     * Runs the loop's passes (tasks, timers, CQs, sockets) on the calling thread until
     * {@code done} says so or {@code timeoutNanos} pass, as the loop's mode says: spinning in
     * BUSY, spinning then sleeping in epoll_wait in ADAPTIVE, sleeping there in EVENT. Returns
     * at once on the loop's own thread or inside a callback; returns early when the loop stops,
     * the thread is interrupted, or (not BUSY) another thread runs the loop and does not let go
     * soon: the caller then waits as it would, and that thread completes what it waits for.
     *
     * @param done         what the caller waits for
     * @param timeoutNanos how long at most
     */
    void drive(BooleanSupplier done, long timeoutNanos);

    /**
     * For a loop without a thread of its own ({@code CompletionLoop.withoutThread}): runs one
     * pass (tasks, due timers, CQs, the epoll set) on the calling thread, the loop's thread from
     * its first call on, where every handler, source and timer of the loop then runs. A pass
     * that finds nothing to do sleeps in epoll_wait as the mode says (not while BUSY, or while
     * ADAPTIVE spins), for at most {@code maxBlockNanos} and no longer than the nearest timer:
     * an fd that gets ready, or {@link #wakeup()} from another thread, ends the sleep. After
     * {@code close()} the next pass ends the loop. Other threads never run such a loop's passes:
     * {@link #drive} returns at once for them, and they wait as they would on any future.
     *
     * @param maxBlockNanos how long the pass may sleep: 0 never, negative until woken or due
     * @return the work the pass found (tasks, timers, completion batches, ready fds): 0 when idle
     * @throws IllegalStateException on a loop with a thread of its own, or on another thread than
     *                               the one that ran the first pass
     */
    int runPass(long maxBlockNanos);

    /**
     * As {@link #runPass(long)}, for an owner with work of its own (an event loop's task queue):
     * a pass about to sleep asks {@code ownerIdle} once more after it has published that it
     * sleeps, and does not sleep if the owner has work by then. Work the owner gets from another
     * thread after that must come with {@link #wakeup()}, which then ends the sleep: no wake-up
     * is lost between the owner's look at its queue and the sleep.
     *
     * @param maxBlockNanos how long the pass may sleep: 0 never, negative until woken or due
     * @param ownerIdle     whether the owner still has nothing to do; asked on the owner's thread
     * @return the work the pass found: 0 when idle
     * @throws IllegalStateException as {@link #runPass(long)}
     */
    int runPass(long maxBlockNanos, java.util.function.BooleanSupplier ownerIdle);

    /**
     * Makes a loop that sleeps in epoll_wait, or is about to, come back and look at its work:
     * any thread. At most one eventfd write per sleep; nothing when the loop is awake or this is
     * its own thread.
     */
    void wakeup();

    /**
     * Runs {@code task} where the loop runs and waits for it: on the loop thread, or on this one
     * when it can take the loop over while it waits ({@link #drive}); here too if the loop is
     * this thread or gone.
     *
     * @param task    what to run
     * @param timeout how long to wait for it
     * @throws IllegalStateException when the task did not finish in time, or the wait was interrupted
     */
    void runAndWait(Runnable task, Duration timeout);

    /**
     * A source posted a request from outside the loop: a loop asleep for longer than
     * {@link #OWN_COMPLETIONS_MAX_DELAY_MILLIS}, perhaps armed for solicited completions only,
     * wakes to bound its sleep, so the request's completion is taken in time. Costs a volatile
     * read when the loop is awake or driven.
     */
    void requestPosted();

    /**
     * A timer whose task runs in the loop's passes each time it is due ({@link LoopTimer#schedule}).
     *
     * @param task what to run; it must not block
     * @return the timer, not yet scheduled
     */
    LoopTimer newTimer(Runnable task);

    /**
     * Adds {@code fd} to the epoll set with {@code events} (level-triggered epoll bits);
     * {@code handler} runs in the loop's passes when it is ready.
     *
     * @param fd      the fd, which stays the caller's to close (after {@link #unwatch})
     * @param events  the epoll bits to wait for
     * @param handler called when the fd is ready
     */
    void watch(int fd, int events, FdHandler handler);

    /**
     * Changes what {@code fd} is watched for; any thread (epoll_ctl needs no wake-up). No events
     * takes the fd out of the epoll set until some are asked again: the loop then hears nothing
     * of it, not even an error or a hang-up, which whoever reads or writes it meets itself.
     *
     * @param fd     a watched fd
     * @param events the epoll bits to wait for from now on; 0 for none
     */
    void changeEvents(int fd, int events);

    /**
     * Takes {@code fd} out of the set; call before closing it.
     *
     * @param fd a watched fd
     */
    void unwatch(int fd);

    /**
     * Polls {@code source}'s completion queue from now on.
     *
     * @param source the queue and its handler; stays the caller's
     */
    void addSource(CompletionSource source);

    /**
     * Stops polling {@code source}'s completion queue; call before closing the queue.
     *
     * @param source a source given to {@link #addSource}
     */
    void removeSource(CompletionSource source);

    /**
     * Polls {@code source} in every pass from now on, and arms it before each sleep.
     *
     * @param source the memory source; stays the caller's
     */
    void addMemorySource(MemorySource source);

    /**
     * Stops polling {@code source}; call before freeing the memory it reads.
     *
     * @param source a source given to {@link #addMemorySource}
     */
    void removeMemorySource(MemorySource source);

    /**
     * Takes the CQ events of a completion channel that is not a {@link #device}'s, as the loop
     * takes a device's: its fd (made non-blocking) joins the epoll set, and each event taken marks
     * its CQ unarmed, so the loop arms it again before it next sleeps. For CQs that must live on
     * another context than the loop's devices (an rdma_cm id's, as NVMe-oF queues have).
     *
     * @param events the channel, which stays the caller's to close (after {@link #unwatchEvents})
     */
    void watchEvents(CompletionChannel events);

    /**
     * Takes a channel given to {@link #watchEvents} out of the epoll set; call before closing it,
     * after removing the sources whose CQs signal it.
     *
     * @param events a watched channel
     */
    void unwatchEvents(CompletionChannel events);

    /**
     * The loop's shared view of a device, opened on first use; closed when the loop stops.
     *
     * @param name the RDMA device name
     * @return the device, owned by the loop (callers never close it)
     * @throws java.util.concurrent.RejectedExecutionException when the loop is stopped
     */
    LoopDevice device(String name);

    /**
     * How many times the loop came back from a blocking wait or a nap: what an idle loop should
     * not do. For tests and benchmarks.
     *
     * @return the count since the loop started
     */
    long wakeups();

    /**
     * How many eventfd writes other threads made to wake the loop. For tests and benchmarks.
     *
     * @return the count since the loop started
     */
    long eventfdWrites();
}
