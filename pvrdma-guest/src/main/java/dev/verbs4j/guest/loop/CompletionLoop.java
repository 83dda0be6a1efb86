package dev.verbs4j.guest.loop;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.CompletionMode;
import dev.verbs4j.guest.linux.Epoll;
import dev.verbs4j.guest.linux.EventFd;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.WorkCompletions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One platform thread that takes completions for any number of channels and delivers them to
 * their futures and listeners. It waits in exactly one place, one epoll set holding: the
 * completion-channel fd of every device its CQs signal (non-blocking), one eventfd that other
 * threads signal for tasks, wake-ups and close, and every socket it serves (TCP channels, the
 * control connections of RDMA channels). Timeouts come from a deadline heap passed as the epoll
 * timeout, so an idle loop sleeps until something happens.
 *
 * <p>{@link CompletionMode} decides how it waits: BUSY polls the CQs and looks at the other fds
 * with a zero-timeout epoll_wait (every pass while a socket carries messages, else every
 * 100 µs); ADAPTIVE does the same for its spin budget after the last
 * work, then behaves as EVENT; EVENT arms every CQ not armed yet, polls once more (a completion
 * that landed between the last poll and the arm is not left waiting for an event that does not
 * come) and blocks. A CQ is armed for solicited completions only (the peer's messages) while
 * nobody waits for the completion of a request of its own
 * ({@link CompletionLoopSource#awaitsOwnCompletions}). CQ events are acknowledged in batches by
 * {@link CompletionQueue}.
 *
 * <p>Wake-ups: {@link #nextWakeup} is AWAKE while the loop runs and the deadline it sleeps to
 * while it is about to block. A thread that queues a task swaps in AWAKE and writes the eventfd
 * only when it was not AWAKE already: at most one write per sleep, none while the loop is awake
 * and none from the loop thread itself.
 *
 * <p>Waiting threads drive the loop. An application thread that waits on one of the loop's
 * futures ({@link #newFuture}) or for a send credit runs the loop's passes itself
 * ({@link #drive}), spinning or sleeping in epoll_wait as the mode says, while the loop thread
 * naps: as in a C program's one thread, a completion then wakes (or is found by) the thread
 * that waits for it, with no hand-off from the loop thread, and a BUSY process has one spinning
 * thread, not two. Every pass, by the loop thread or a driver, holds {@link #pass} (also while
 * it sleeps in epoll_wait): callbacks still run one at a time, and {@link #inLoop()} is true on
 * whichever thread runs them. While drivers come and go the loop thread looks at the sockets
 * and timers every 10 ms; 10 ms after the last driver left it sleeps in epoll_wait again. When
 * no driver left during a whole nap (a thread waits on an idle channel) the loop thread sleeps
 * until the last one leaves: a waiting application thread costs no wake-ups of the loop thread.
 */
public final class CompletionLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CompletionLoop.class);
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final Duration DEFAULT_SPIN = Duration.ofMillis(1);
    private static final long AWAKE = -1L, NO_DEADLINE = Long.MAX_VALUE;
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How long the loop thread naps while application threads drive it, and how long after the
     * last one left it takes the loop back. Each nap's end costs a wake-up of the loop thread
     * beside the driver's: at 1 ms that doubled the CPU time of an EVENT round trip in the rig.
     */
    private static final long DRIVEN_NAP_NANOS = 10_000_000L;
    /**
     * A driver's longest sleep in epoll_wait: its future may be completed by a thread that does
     * not wake the loop (a failure found while posting), and it should notice.
     */
    private static final int DRIVER_SLEEP_CAP_MILLIS = 50;
    /** How long a driver waits for the loop thread to leave epoll_wait and hand over the loop. */
    private static final long HANDOVER_WAIT_NANOS = 1_000_000L;
    private static final int NEVER_BLOCK = 0, BLOCK_UNTIL_DUE = -1;
    /**
     * How often a spinning pass looks at the epoll set when no watched fd carries messages (only
     * control sockets and wake-ups are there), and how often a spinning loop thread yields: both
     * are system calls, and under emulation they cost more than the CQ poll they sat beside.
     */
    private static final long SPIN_SYSCALL_INTERVAL_NANOS = 100_000;
    /**
     * A BUSY driver reads the clock (for its timeout) and its interrupt flag once per this many
     * passes: in the rig, clock reads were a fifth of a spinning round trip's CPU samples.
     */
    private static final int SPINS_PER_CLOCK_READ = 64;
    /**
     * How long a loop armed for solicited completions only sleeps at most while a source's own
     * requests are in flight: nobody waits for them, but a stage made from one (or a thread on
     * a stage) should see it complete.
     */
    public static final int OWN_COMPLETIONS_MAX_DELAY_MILLIS = 2;

    private static final int UNARMED = 0, ARMED_SOLICITED = 1, ARMED_ALL = 2;

    /** A polled CQ and how it is armed since its last event (an event will come for which completions). */
    private static final class Queue {
        final CompletionLoopSource source;
        int armed = UNARMED;

        Queue(CompletionLoopSource source) {
            this.source = source;
        }
    }

    private final CompletionMode mode;
    private final long spinNanos;
    private final Thread thread;
    private final Epoll epoll = new Epoll(64);
    private final EpollMembership members = new EpollMembership(epoll);
    private final EventFd wakeFd = new EventFd();
    private final AtomicLong nextWakeup = new AtomicLong(AWAKE);
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final CompletionLoopTimers timers = new CompletionLoopTimers();
    private final List<Queue> queues = new ArrayList<>();
    /** Handlers by fd number: an fd is unique among open fds, and leaves the set before it closes. */
    private CompletionLoopFd[] handlers = new CompletionLoopFd[64];
    /** Watched fds that {@link CompletionLoopFd#carriesMessages()}; loop only. */
    private int messageFds;
    private long lastEpollLook;
    /** When the spinning loop thread last yielded its CPU: a system call, so not on every spin. */
    private long lastYield;
    /** When the last pass began (System.nanoTime), for whoever ran it. */
    private long passStart;
    private final Map<String, CompletionLoopDevice> devices = new HashMap<>();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private volatile boolean stopping;
    private volatile long wakeups;
    private final AtomicLong eventfdWrites = new AtomicLong();
    private final WorkCompletions batch = new WorkCompletions(32);
    /** Held by whichever thread runs a pass: the loop thread, or an application thread driving it. */
    private final ReentrantLock pass = new ReentrantLock();
    private final AtomicInteger drivers = new AtomicInteger();
    private volatile long lastDriven = System.nanoTime() - DRIVEN_NAP_NANOS;
    /** Loop thread only: a {@link #lastDriven} already found older than the nap. */
    private long lingerOver = Long.MIN_VALUE;
    /** The loop thread naps (drivers about): a task from another thread unparks it. */
    private volatile boolean napping;
    /** The loop thread sleeps until the last driver leaves ({@link #awaitDriversGone}): that driver unparks it. */
    private volatile boolean sleepsWhileDriven;
    private long lastWork = System.nanoTime();

    private CompletionLoop(CompletionMode mode, Duration spin) {
        this.mode = mode;
        this.spinNanos = spin.toNanos();
        epoll.add(wakeFd.fd(), Epoll.IN);
        this.thread = Thread.ofPlatform().daemon().name("verbs4j-loop-" + mode.label() + "-" + THREADS.incrementAndGet())
                .unstarted(this::run);
    }

    /**
     * Starts a loop; ADAPTIVE spins for 1 ms after the last completion before it blocks.
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
        CompletionLoop loop = new CompletionLoop(mode, spin);
        loop.thread.start();
        LOG.debug("completion loop {} started ({})", loop.thread.getName(), mode);
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
     * How long an ADAPTIVE loop spins after its last piece of work before it blocks.
     *
     * @return nanoseconds
     */
    public long spinNanos() {
        return spinNanos;
    }

    /**
     * Whether the caller runs the loop: on its own thread, or an application thread driving it
     * (where callbacks run and nothing may block).
     *
     * @return true on the loop thread, or inside a driving thread's pass
     */
    public boolean inLoop() {
        return Thread.currentThread() == thread || pass.isHeldByCurrentThread();
    }

    /**
     * A future for an operation this loop completes: a thread that waits on it drives the loop
     * meanwhile (see the class comment).
     *
     * @param <T> the result type
     * @return a new incomplete future
     */
    public <T> CompletableFuture<T> newFuture() {
        return new LoopFuture<>(this);
    }

    /**
     * Whether a thread waits for {@code future}, or polled it: what a
     * {@link CompletionLoopSource#awaitsOwnCompletions} asks of its operations.
     *
     * @param future a future, usually from {@link #newFuture}
     * @return true if its completion should wake a sleeping loop at once (always, for a future
     *         not made by a loop)
     */
    public static boolean isAwaited(CompletableFuture<?> future) {
        return !(future instanceof LoopFuture<?> f) || f.awaited();
    }

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
    public void drive(BooleanSupplier done, long timeoutNanos) {
        if (done.getAsBoolean() || inLoop() || stopping) {
            return;
        }
        long start = System.nanoTime();
        drivers.incrementAndGet();
        try {
            int passes = 0;
            while (!done.getAsBoolean() && !stopping) {
                long left = Long.MAX_VALUE; // a spinning pass never sleeps: it needs no cap
                if (mode != CompletionMode.BUSY_POLL || ++passes % SPINS_PER_CLOCK_READ == 0) {
                    left = timeoutNanos - (System.nanoTime() - start);
                    if (left <= 0 || Thread.currentThread().isInterrupted()) {
                        return;
                    }
                }
                if (!takePass()) {
                    if (mode != CompletionMode.BUSY_POLL) {
                        return;
                    }
                    Thread.onSpinWait();
                    continue;
                }
                try {
                    if (stopped.isDone() || done.getAsBoolean()) {
                        return; // completed while this thread waited for the loop
                    }
                    runPass((int) Math.min(DRIVER_SLEEP_CAP_MILLIS, Math.max(1, left / 1_000_000L)));
                } finally {
                    pass.unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lastDriven = System.nanoTime();
            if (drivers.decrementAndGet() == 0 && sleepsWhileDriven) {
                LockSupport.unpark(thread); // it takes the loop back after its linger
            }
        }
    }

    /**
     * Takes {@link #pass} for a driver. Outside BUSY the loop thread may be asleep in epoll_wait
     * holding it: wake it (it sees a driver and naps) and wait a moment for it to let go.
     */
    private boolean takePass() throws InterruptedException {
        if (pass.tryLock()) {
            return true;
        }
        if (mode == CompletionMode.BUSY_POLL) {
            return false;
        }
        wakeup();
        return pass.tryLock(HANDOVER_WAIT_NANOS, TimeUnit.NANOSECONDS);
    }

    /**
     * Whether the loop thread still runs.
     *
     * @return false once the loop stopped
     */
    public boolean isRunning() {
        return !stopped.isDone();
    }

    /** How many times the loop came back from a blocking wait or a nap: what an idle loop should not do. */
    long wakeups() {
        return wakeups;
    }

    /** How many eventfd writes other threads made to wake the loop. */
    long eventfdWrites() {
        return eventfdWrites.get();
    }

    /**
     * Runs {@code task} on the loop thread soon; any thread.
     *
     * @param task what to run; it must not block
     * @throws ChannelException {@link ChannelError#CLOSED} when the loop is stopped
     */
    public void execute(Runnable task) {
        if (!isRunning()) {
            throw new ChannelException(ChannelError.CLOSED, "the completion loop is stopped");
        }
        tasks.add(task);
        wakeup();
    }

    /**
     * Runs {@code task} on the loop thread after {@code delay}; any thread.
     *
     * @param delay how long to wait first
     * @param task  what to run; it must not block
     */
    public void schedule(Duration delay, Runnable task) {
        long deadline = System.nanoTime() + delay.toNanos();
        if (inLoop()) {
            timers.add(deadline, task);
        } else {
            execute(() -> timers.add(deadline, task));
        }
    }

    /**
     * Runs {@code timer}'s task after {@code delayNanos}, in the loop's passes; moves it if it is
     * queued already. Allocates nothing: for a timer that ticks as often as messages come.
     *
     * @param timer      the timer, made once
     * @param delayNanos how long to wait first
     * @throws IllegalStateException outside the loop's passes ({@link #inLoop()})
     */
    public void scheduleInLoop(LoopTimer timer, long delayNanos) {
        if (!inLoop()) {
            throw new IllegalStateException("a loop timer is scheduled from the loop's own passes");
        }
        timers.add(timer, System.nanoTime() + delayNanos);
    }

    /**
     * A source posted a request from outside the loop: a loop asleep for longer than
     * {@link #OWN_COMPLETIONS_MAX_DELAY_MILLIS}, perhaps armed for solicited completions only,
     * wakes to bound its sleep, so the request's completion is taken in time. Costs a volatile
     * read when the loop is awake or driven.
     *
     * <p>For the transports behind the channels; applications do not need it.
     */
    public void requestPosted() {
        if (inLoop()) {
            return; // the pass that goes to sleep next sees the request
        }
        long wake = nextWakeup.get();
        if (wake != AWAKE && wake - System.nanoTime() > OWN_COMPLETIONS_MAX_DELAY_MILLIS * 1_000_000L) {
            wakeup();
        }
    }

    /** Makes a sleeping loop look at its tasks: one eventfd write at most per sleep. */
    void wakeup() {
        if (inLoop()) {
            return;
        }
        if (nextWakeup.getAndSet(AWAKE) != AWAKE) {
            eventfdWrites.incrementAndGet();
            wakeFd.signal();
        } else if (napping) {
            LockSupport.unpark(thread); // a task must not wait out the nap of a driven loop
        }
    }

    /**
     * Runs {@code task} where the loop runs and waits for it: on the loop thread, or on this one
     * when it can take the loop over while it waits ({@link #drive}); here too if the loop is
     * this thread or gone.
     *
     * @param task    what to run
     * @param timeout how long to wait for it
     * @throws ChannelException when the task failed, did not finish in time, or the wait was interrupted
     */
    public void runAndWait(Runnable task, Duration timeout) {
        if (inLoop() || !isRunning()) {
            task.run();
            return;
        }
        LoopFuture<Void> done = new LoopFuture<>(this); // waiting on it runs the task here if it can take the loop
        try {
            execute(() -> {
                try {
                    task.run();
                    done.complete(null);
                } catch (RuntimeException | Error e) {
                    done.completeExceptionally(e);
                }
            });
        } catch (ChannelException stoppedMeanwhile) {
            task.run();
            return;
        }
        try {
            done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new ChannelException(ChannelError.TRANSPORT, "the completion loop did not run a task within "
                    + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChannelException(ChannelError.TRANSPORT, "interrupted");
        }
    }

    /**
     * Adds {@code fd} to the epoll set with {@code events} (level-triggered, {@link Epoll} bits);
     * {@code handler} runs on the loop thread when it is ready.
     *
     * <p>For the transports behind the channels; applications do not need it.
     *
     * @param fd      the fd, which stays the caller's to close (after {@link #unwatch})
     * @param events  the epoll bits to wait for
     * @param handler called on the loop thread when the fd is ready
     */
    public void watch(int fd, int events, CompletionLoopFd handler) {
        runAndWait(() -> {
            if (fd >= handlers.length) {
                handlers = Arrays.copyOf(handlers, Math.max(fd + 1, handlers.length * 2));
            }
            handlers[fd] = handler;
            try {
                members.add(fd, events);
            } catch (RuntimeException e) {
                handlers[fd] = null;
                throw e;
            }
            if (handler.carriesMessages()) {
                messageFds++;
            }
        }, CALL_TIMEOUT);
    }

    /**
     * Changes what {@code fd} is watched for; any thread (epoll_ctl needs no wake-up). No events
     * takes the fd out of the epoll set until some are asked again ({@link EpollMembership}): the
     * loop then hears nothing of it, not even an error or a hang-up, which whoever reads or
     * writes it meets itself.
     *
     * <p>For the transports behind the channels; applications do not need it.
     *
     * @param fd     a watched fd
     * @param events the epoll bits to wait for from now on; 0 for none
     */
    public void changeEvents(int fd, int events) {
        members.change(fd, events);
    }

    /**
     * Takes {@code fd} out of the set; call before closing it.
     *
     * <p>For the transports behind the channels; applications do not need it.
     *
     * @param fd a watched fd
     */
    public void unwatch(int fd) {
        runAndWait(() -> {
            if (fd < handlers.length && handlers[fd] != null) {
                if (handlers[fd].carriesMessages()) {
                    messageFds--;
                }
                handlers[fd] = null;
                try {
                    members.remove(fd);
                } catch (RuntimeException e) {
                    LOG.debug("removing fd {} from the epoll set: {}", fd, e.getMessage());
                }
            }
        }, CALL_TIMEOUT);
    }

    /**
     * Polls {@code source}'s completion queue from now on.
     *
     * <p>For the transports behind the channels; applications do not need it.
     *
     * @param source the queue and its handler; stays the caller's
     */
    public void addSource(CompletionLoopSource source) {
        runAndWait(() -> queues.add(new Queue(source)), CALL_TIMEOUT);
    }

    /**
     * Stops polling {@code source}'s completion queue; call before closing the queue.
     *
     * <p>For the transports behind the channels; applications do not need it.
     *
     * @param source a source given to {@link #addSource}
     */
    public void removeSource(CompletionLoopSource source) {
        runAndWait(() -> queues.removeIf(q -> q.source == source), CALL_TIMEOUT);
    }

    /**
     * The loop's shared view of a device, opened on first use; closed when the loop stops.
     *
     * <p>For the transports behind the channels; applications do not need it.
     *
     * @param name the RDMA device name
     * @return the device, owned by the loop (callers never close it)
     */
    public CompletionLoopDevice device(String name) {
        CompletionLoopDevice device;
        boolean opened = false;
        synchronized (this) {
            if (!isRunning()) {
                throw new ChannelException(ChannelError.CLOSED, "the completion loop is stopped");
            }
            device = devices.get(name);
            if (device == null) {
                device = new CompletionLoopDevice(name, this::eventFor);
                devices.put(name, device);
                opened = true;
            }
        }
        if (opened) {
            watch(device.events().fd(), Epoll.IN, device);
        }
        return device;
    }

    /** A CQ event was taken: that CQ is no longer armed (loop thread). */
    private void eventFor(CompletionQueue cq) {
        for (int i = 0; i < queues.size(); i++) {
            Queue q = queues.get(i);
            if (q.source.queue() == cq) {
                q.armed = UNARMED;
                return;
            }
        }
    }

    /** Stops the thread (bounded wait) and closes the devices; channels should be closed first. */
    @Override
    public void close() {
        stopping = true;
        wakeup();
        LockSupport.unpark(thread); // a driven loop's thread naps
        if (!inLoop()) {
            try {
                stopped.get(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("completion loop {} did not stop in time", thread.getName());
            }
        }
    }

    private void run() {
        try {
            while (!stopping) {
                boolean nap = driven();
                if (nap) {
                    napping = true;
                    long drivenBefore = lastDriven;
                    LockSupport.parkNanos(napNanos());
                    if (lastDriven == drivenBefore && drivers.get() > 0) {
                        awaitDriversGone();
                    }
                    napping = false;
                    if (!pass.tryLock()) {
                        continue;
                    }
                    wakeups++; // counted under the lock, as block() counts its own
                } else {
                    pass.lock();
                }
                boolean idleSpin;
                try {
                    idleSpin = runPass(nap ? NEVER_BLOCK : BLOCK_UNTIL_DUE);
                } finally {
                    pass.unlock();
                }
                if (idleSpin && !nap) {
                    if (passStart - lastYield >= SPIN_SYSCALL_INTERVAL_NANOS) {
                        lastYield = passStart;
                        Thread.yield(); // a spinning loop lets a runnable application thread have its CPU
                    }
                }
            }
        } catch (Throwable t) {
            LOG.error("completion loop {} failed", thread.getName(), t);
        } finally {
            shutDown();
        }
    }

    /**
     * Whether application threads drive the loop now or did within {@link #DRIVEN_NAP_NANOS}: the
     * loop thread naps, looking at the sockets and timers after each nap without sleeping in
     * epoll_wait (which would hold {@link #pass} from the next driver). An idle loop is never
     * driven: it sleeps.
     */
    private boolean driven() {
        if (drivers.get() > 0) {
            return true;
        }
        long last = lastDriven;
        if (last == lingerOver) {
            return false; // no driver since its linger ran out: a spinning loop reads no clock here
        }
        if (System.nanoTime() - last < DRIVEN_NAP_NANOS) {
            return true;
        }
        lingerOver = last;
        return false;
    }

    /**
     * Loop thread, after a whole nap in which no driver left: a thread has been waiting in
     * {@link #drive} all along (a receive on an idle channel), running the passes itself, so the
     * loop thread sleeps until the last driver leaves, a task comes or the loop closes, instead
     * of looking again every nap. The flag is set before the check and the driver reads it after
     * its decrement: one of the two sees the other.
     */
    private void awaitDriversGone() {
        sleepsWhileDriven = true;
        try {
            while (drivers.get() > 0 && !stopping && tasks.isEmpty()) {
                LockSupport.park(this);
            }
        } finally {
            sleepsWhileDriven = false;
        }
    }

    /** Until the next look at the sockets and timers, or the end of the last driver's linger. */
    private long napNanos() {
        long sinceLastDriver = System.nanoTime() - lastDriven;
        return drivers.get() > 0 ? DRIVEN_NAP_NANOS : Math.max(1, DRIVEN_NAP_NANOS - sinceLastDriver);
    }

    /**
     * One pass: tasks, due timers, CQs, then the epoll set (a zero timeout while spinning or
     * after work, else {@link #block} for at most {@code maxSleepMillis}: {@link #NEVER_BLOCK},
     * {@link #BLOCK_UNTIL_DUE} or a cap). Returns true when it spun and found nothing.
     */
    private boolean runPass(int maxSleepMillis) {
        long now = System.nanoTime(); // one clock read per pass: the rest goes by it
        passStart = now;
        int work = runTasks() + timers.runDue(now) + pollQueues();
        if (work > 0) {
            lastWork = now;
        }
        boolean spinning = mode == CompletionMode.BUSY_POLL
                || (mode == CompletionMode.ADAPTIVE && now - lastWork < spinNanos);
        boolean mustNotSleep = spinning || work > 0 || maxSleepMillis == NEVER_BLOCK;
        int ready;
        if (!mustNotSleep) {
            ready = block(now, maxSleepMillis);
        } else if (messageFds > 0 || maxSleepMillis == NEVER_BLOCK || now - lastEpollLook >= SPIN_SYSCALL_INTERVAL_NANOS) {
            lastEpollLook = now;
            ready = epoll.await(0);
        } else {
            ready = 0; // nothing there needs a look on every spin
        }
        if (ready > 0) {
            dispatch(ready);
            lastWork = System.nanoTime();
            return false;
        }
        return spinning;
    }

    private int runTasks() {
        int n = 0;
        Runnable task;
        while ((task = tasks.poll()) != null) {
            n++;
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("a completion loop task failed", e);
            }
        }
        return n;
    }

    /** Drains every CQ; returns how many completions were handled. */
    private int pollQueues() {
        int total = 0;
        for (int i = 0; i < queues.size(); i++) {
            Queue q = queues.get(i);
            int n;
            while ((n = poll(q.source)) > 0) {
                q.source.deliver(batch);
                total += n;
                if (i >= queues.size() || queues.get(i) != q) {
                    break; // the delivery ended its channel and removed the source
                }
            }
        }
        return total;
    }

    private int poll(CompletionLoopSource source) {
        try {
            return source.queue().poll(batch);
        } catch (RuntimeException e) {
            LOG.warn("polling a completion queue failed", e);
            return 0;
        }
    }

    /**
     * Arms the CQs that are not armed (or armed for solicited completions only while someone now
     * waits for all: asking again for every completion widens it), polls once more if it armed
     * any, then waits in epoll until an fd is ready, the nearest deadline or
     * {@code maxSleepMillis}; returns how many fds are ready.
     */
    private int block(long now, int maxSleepMillis) {
        boolean armedAny = false;
        for (int i = 0; i < queues.size(); i++) {
            Queue q = queues.get(i);
            int wanted = q.source.awaitsOwnCompletions() ? ARMED_ALL : ARMED_SOLICITED;
            if (q.armed < wanted) {
                try {
                    q.source.queue().requestNotification(wanted == ARMED_SOLICITED);
                    q.armed = wanted;
                    armedAny = true;
                } catch (RuntimeException e) {
                    LOG.warn("arming a completion queue failed", e);
                }
            }
        }
        if (armedAny && pollQueues() > 0) {
            return epoll.await(0);
        }
        long timeout = timers.nanosToNext(now); // nanoseconds: a timer may be due in microseconds
        long cap = maxSleepMillis * 1_000_000L;
        if (maxSleepMillis != BLOCK_UNTIL_DUE && (timeout < 0 || timeout > cap)) {
            timeout = cap;
        }
        nextWakeup.set(timeout < 0 ? NO_DEADLINE : now + timeout);
        if (!tasks.isEmpty() || stopping) {
            nextWakeup.set(AWAKE);
            return epoll.await(0);
        }
        // after the deadline is published: a request posted from now on sees it (requestPosted)
        long ownCap = OWN_COMPLETIONS_MAX_DELAY_MILLIS * 1_000_000L;
        if ((timeout < 0 || timeout > ownCap) && ownRequestsUnwatched()) {
            timeout = ownCap;
            nextWakeup.set(now + timeout);
        }
        int ready = epoll.awaitNanos(timeout);
        nextWakeup.set(AWAKE);
        wakeups++;
        // the set was just looked at: the pass that handles this wake-up's work need not look again
        lastEpollLook = System.nanoTime();
        return ready;
    }

    /** Whether a CQ armed for solicited completions only has requests of its own in flight. */
    private boolean ownRequestsUnwatched() {
        for (int i = 0; i < queues.size(); i++) {
            Queue q = queues.get(i);
            if (q.armed == ARMED_SOLICITED && q.source.hasOwnInFlight()) {
                return true;
            }
        }
        return false;
    }

    private void dispatch(int ready) {
        for (int i = 0; i < ready; i++) {
            int fd = epoll.readyFd(i);
            int events = epoll.readyEvents(i);
            if (fd == wakeFd.fd()) {
                wakeFd.drain();
                continue;
            }
            CompletionLoopFd handler = fd < handlers.length ? handlers[fd] : null;
            if (handler == null) {
                continue; // unwatched by an earlier handler in this batch
            }
            try {
                handler.onReady(events);
            } catch (RuntimeException e) {
                LOG.warn("handling fd {} failed", fd, e);
            }
        }
    }

    /** Ends the loop under {@link #pass}, so no driver polls a queue or the batch as they go. */
    private void shutDown() {
        pass.lock();
        try {
            shutDownHeld();
        } finally {
            pass.unlock();
        }
    }

    private void shutDownHeld() {
        runTasks();
        for (int fd = 0; fd < handlers.length; fd++) {
            if (handlers[fd] instanceof AutoCloseable c && !(c instanceof CompletionLoopDevice)) {
                closeQuietly(c);
            }
        }
        batch.close();
        synchronized (this) {
            stopped.complete(null);
            for (CompletionLoopDevice d : devices.values()) {
                closeQuietly(d);
            }
            devices.clear();
        }
        epoll.close();
        wakeFd.close();
        LOG.debug("completion loop {} stopped", thread.getName());
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("closing {} while stopping the completion loop failed: {}", c, e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "CompletionLoop[" + thread.getName() + "]";
    }
}
