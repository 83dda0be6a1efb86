package dev.verbs4j.loop.internal;

import dev.verbs4j.loop.spi.CompletionSource;
import dev.verbs4j.loop.spi.FdHandler;
import dev.verbs4j.loop.spi.LoopDevice;
import dev.verbs4j.loop.spi.LoopEngine;
import dev.verbs4j.loop.spi.LoopTimer;
import dev.verbs4j.loop.spi.MemorySource;
import dev.verbs4j.unix.Epoll;
import dev.verbs4j.unix.FileDescriptor;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.CompletionQueue;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop itself: its thread, its passes and how a pass waits. A pass runs the queued tasks,
 * the due timers, drains every CQ ({@link CqTable}), then looks at the epoll set
 * ({@link FdTable}): with a zero timeout now and then while spinning or after work, else it blocks. BUSY polls
 * and looks with a zero timeout on every pass (every pass while a socket carries messages, else
 * every 100 µs); ADAPTIVE does the same for its spin budget after the last work, then behaves as
 * EVENT; EVENT arms every CQ not armed yet, polls once more (a completion that landed between the
 * last poll and the arm is not left waiting for an event that does not come) and blocks until an
 * fd is ready or the nearest timer ({@link LoopTimers}) is due. Other threads wake it through
 * {@link WakeSignal}; application threads drive its passes themselves ({@link DriverHandover}).
 *
 * <p><b>Size.</b> One job, the pass and its wait; the tables, timers, wake signal and driver
 * hand-over it runs are their own classes. What is left shares the loop's state and its ordering.
 */
public final class DefaultEngine implements LoopEngine, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DefaultEngine.class);
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final long NEVER_BLOCK = 0, BLOCK_UNTIL_DUE = -1;
    /**
     * How often a spinning pass looks at the epoll set when no watched fd carries messages (only
     * control sockets and wake-ups are there), and how often a spinning loop thread yields: both
     * are system calls, and under emulation they cost more than the CQ poll they sat beside.
     */
    private static final long SPIN_SYSCALL_INTERVAL_NANOS = 100_000;
    /**
     * How often a pass that found work, in a loop that sleeps when idle, looks at the epoll set
     * with a zero timeout. The next pass that finds nothing waits in epoll_wait, which reports
     * the ready fds as well, so the look only keeps fds from waiting behind a run of completions:
     * a ping-pong, one completion and one sleep after another, makes none.
     */
    private static final long SLEEPING_LOOK_INTERVAL_NANOS = 1_000_000;

    private final boolean busy;
    private final long spinNanos;
    /** False for a loop whose owner runs its passes ({@link #runPass(long)}): no thread of its own. */
    private final boolean ownThread;
    /** The loop's thread: its own, or the owner's once it ran a first pass. */
    private volatile Thread thread;
    private final String name;
    private final Epoll epoll = new Epoll(64);
    private final FdTable fds = new FdTable(epoll);
    private final WakeSignal wake = new WakeSignal();
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final LoopTimers timers = new LoopTimers();
    private final CqTable queues = new CqTable();
    private final MemoryTable memories = new MemoryTable();
    private final DeviceTable devices = new DeviceTable(queues::eventFor);
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private volatile boolean stopping;
    private volatile long wakeups;
    /** Held by whichever thread runs a pass: the loop thread, or an application thread driving it. */
    private final ReentrantLock pass = new ReentrantLock();
    private final DriverHandover handover = new DriverHandover(this, pass);
    private long lastEpollLook;
    /** When the spinning loop thread last yielded its CPU: a system call, so not on every spin. */
    private long lastYield;
    /** When the last pass began (System.nanoTime), for whoever ran it. */
    private long passStart;
    private long lastWork = System.nanoTime();
    /** Tasks, timers, completions and ready fds of the last pass. */
    private int lastPassWork;
    private static final BooleanSupplier ALWAYS_IDLE = () -> true;
    /** During an owner's pass: whether the owner still has nothing of its own to do (it may sleep). */
    private BooleanSupplier ownerIdle = ALWAYS_IDLE;

    /**
     * A loop, not started yet.
     *
     * @param modeLabel  its mode's name, for the thread's name
     * @param busy       whether it spins all the time (BUSY)
     * @param spinNanos  how long it spins after its last work before it sleeps (0: at once)
     */
    public DefaultEngine(String modeLabel, boolean busy, long spinNanos) {
        this(modeLabel, busy, spinNanos, true);
    }

    /**
     * A loop, not started yet, with a thread of its own or without one.
     *
     * @param modeLabel  its mode's name, for the thread's name
     * @param busy       whether it spins all the time (BUSY)
     * @param spinNanos  how long it spins after its last work before it sleeps (0: at once)
     * @param ownThread  false: the owner runs its passes ({@link #runPass(long)}) on a thread of its own
     */
    public DefaultEngine(String modeLabel, boolean busy, long spinNanos, boolean ownThread) {
        this.busy = busy;
        this.spinNanos = spinNanos;
        this.ownThread = ownThread;
        this.name = "verbs4j-loop-" + modeLabel + "-" + THREADS.incrementAndGet() + (ownThread ? "" : "-owned");
        epoll.add(wake.fd(), Epoll.IN);
        this.thread = ownThread ? Thread.ofPlatform().daemon().name(name).unstarted(this::run) : null;
    }

    /** Starts the loop thread; nothing for a loop without one. */
    public void start() {
        if (ownThread) {
            thread.start();
        }
        LOG.debug("completion loop {} started", name);
    }

    /** The loop thread's name (the loop's, for one without a thread). */
    public String threadName() {
        return name;
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == thread || pass.isHeldByCurrentThread();
    }

    @Override
    public boolean spinsAlways() {
        return busy;
    }

    @Override
    public long spinNanos() {
        return spinNanos;
    }

    /** Whether the loop thread still runs. */
    public boolean isRunning() {
        return !stopped.isDone();
    }

    @Override
    public <T> CompletableFuture<T> newFuture() {
        return new LoopFuture<>(this);
    }

    @Override
    public boolean isAwaited(CompletableFuture<?> future) {
        return !(future instanceof LoopFuture<?> f) || f.awaited();
    }

    @Override
    public void drive(BooleanSupplier done, long timeoutNanos) {
        if (ownThread) {
            handover.drive(done, timeoutNanos); // an owned loop's callbacks run on the owner's thread alone
        }
    }

    @Override
    public int runPass(long maxBlockNanos) {
        return runPass(maxBlockNanos, ALWAYS_IDLE);
    }

    @Override
    public int runPass(long maxBlockNanos, BooleanSupplier ownerIdle) {
        if (ownThread) {
            throw new IllegalStateException("the completion loop " + name + " runs on its own thread");
        }
        Thread current = Thread.currentThread();
        if (thread == null) {
            thread = current;
        } else if (thread != current) {
            throw new IllegalStateException("the completion loop " + name + " is run by " + thread.getName()
                    + ", not " + current.getName());
        }
        if (stopped()) {
            return 0;
        }
        if (stopping) {
            shutDown();
            return 0;
        }
        boolean idleSpin;
        pass.lock();
        this.ownerIdle = ownerIdle;
        try {
            idleSpin = pass(maxBlockNanos < 0 ? BLOCK_UNTIL_DUE : maxBlockNanos);
        } finally {
            this.ownerIdle = ALWAYS_IDLE;
            pass.unlock();
        }
        yieldWhileSpinning(idleSpin);
        return lastPassWork;
    }

    /** A spinning loop lets a runnable thread have its CPU now and then (a system call: not every spin). */
    private void yieldWhileSpinning(boolean idleSpin) {
        if (idleSpin && passStart - lastYield >= SPIN_SYSCALL_INTERVAL_NANOS) {
            lastYield = passStart;
            Thread.yield();
        }
    }

    @Override
    public long wakeups() {
        return wakeups;
    }

    @Override
    public long eventfdWrites() {
        return wake.writes();
    }

    /** Runs {@code task} in the loop soon; any thread. */
    public void execute(Runnable task) {
        if (!isRunning()) {
            throw new RejectedExecutionException("the completion loop is stopped");
        }
        tasks.add(task);
        wakeup();
    }

    /** Runs {@code task} in the loop after {@code delay}; any thread. */
    public void schedule(Duration delay, Runnable task) {
        long deadline = System.nanoTime() + delay.toNanos();
        HeapTimer timer = new HeapTimer(this, task);
        if (inLoop()) {
            timers.add(timer, deadline);
        } else {
            execute(() -> timers.add(timer, deadline));
        }
    }

    @Override
    public LoopTimer newTimer(Runnable task) {
        return new HeapTimer(this, task);
    }

    void scheduleInLoop(HeapTimer timer, long delayNanos) {
        if (!inLoop()) {
            throw new IllegalStateException("a loop timer is scheduled from the loop's own passes");
        }
        timers.add(timer, System.nanoTime() + delayNanos);
    }

    @Override
    public void requestPosted() {
        if (inLoop()) {
            return; // the pass that goes to sleep next sees the request
        }
        long next = wake.nextWakeup();
        if (next != WakeSignal.AWAKE && next - System.nanoTime() > OWN_COMPLETIONS_MAX_DELAY_MILLIS * 1_000_000L) {
            wakeup();
        }
    }

    /** Makes a sleeping loop look at its tasks: one eventfd write at most per sleep. */
    @Override
    public void wakeup() {
        if (inLoop()) {
            return;
        }
        if (!wake.wake() && handover.napping()) {
            unparkThread(); // a task must not wait out the nap of a driven loop
        }
    }

    void unparkThread() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    boolean stopping() {
        return stopping;
    }

    boolean stopped() {
        return stopped.isDone();
    }

    boolean hasTasks() {
        return !tasks.isEmpty();
    }

    @Override
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
        } catch (RejectedExecutionException stoppedMeanwhile) {
            task.run();
            return;
        }
        try {
            done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the completion loop did not run a task within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the completion loop");
        }
    }

    @Override
    public void watch(int fd, int events, FdHandler handler) {
        runAndWait(() -> fds.add(fd, events, handler), CALL_TIMEOUT);
    }

    @Override
    public void changeEvents(int fd, int events) {
        fds.change(fd, events);
    }

    @Override
    public void unwatch(int fd) {
        runAndWait(() -> fds.remove(fd), CALL_TIMEOUT);
    }

    @Override
    public void addSource(CompletionSource source) {
        runAndWait(() -> queues.add(source), CALL_TIMEOUT);
    }

    @Override
    public void removeSource(CompletionSource source) {
        runAndWait(() -> queues.remove(source), CALL_TIMEOUT);
    }

    @Override
    public void addMemorySource(MemorySource source) {
        runAndWait(() -> memories.add(source), CALL_TIMEOUT);
    }

    @Override
    public void removeMemorySource(MemorySource source) {
        runAndWait(() -> memories.remove(source), CALL_TIMEOUT);
    }

    @Override
    public void watchEvents(CompletionChannel events) {
        FileDescriptor.setNonBlocking(events.fd());
        watch(events.fd(), Epoll.IN, ready -> {
            CompletionQueue cq = events.takeEvent(); // one per wake-up, as OpenDevice takes them
            if (cq != null) {
                queues.eventFor(cq);
            }
        });
    }

    @Override
    public void unwatchEvents(CompletionChannel events) {
        unwatch(events.fd());
    }

    @Override
    public LoopDevice device(String name) {
        DeviceTable.Lookup found = devices.open(name);
        if (found.opened()) {
            watch(found.device().events().fd(), Epoll.IN, found.device());
            watch(found.device().context().asyncEventFd(), Epoll.IN, found.device().portEvents);
        }
        return found.device();
    }

    /** Stops the thread (bounded wait) and closes the devices; channels should be closed first. */
    @Override
    public void close() {
        stopping = true;
        if (!ownThread && inLoop()) {
            if (!stopped()) {
                shutDown(); // the owner closes its loop: nothing else runs it
            }
            return;
        }
        wakeup();
        unparkThread(); // a driven loop's thread naps
        if (!ownThread && thread == null) {
            shutDown(); // never run: nobody else will end it
            return;
        }
        if (!inLoop()) {
            try {
                stopped.get(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("completion loop {} did not stop in time", name);
            }
        }
    }

    private void run() {
        try {
            while (!stopping) {
                boolean nap = handover.driven();
                if (nap) {
                    if (!handover.napThenTakePass()) {
                        continue;
                    }
                    wakeups++; // counted under the lock, as block() counts its own
                } else {
                    pass.lock();
                }
                boolean idleSpin;
                try {
                    idleSpin = pass(nap ? NEVER_BLOCK : BLOCK_UNTIL_DUE);
                } finally {
                    pass.unlock();
                }
                if (!nap) {
                    yieldWhileSpinning(idleSpin);
                }
            }
        } catch (Throwable t) {
            LOG.error("completion loop {} failed", name, t);
        } finally {
            shutDown();
        }
    }

    /**
     * One pass: tasks, due timers, CQs, then the epoll set (a zero timeout while spinning or
     * after work, else {@link #block} for at most {@code maxSleepNanos}: {@link #NEVER_BLOCK},
     * {@link #BLOCK_UNTIL_DUE} or a cap). Returns true when it spun and found nothing; what it
     * did is left in {@link #lastPassWork}.
     */
    boolean pass(long maxSleepNanos) {
        long now = System.nanoTime(); // one clock read per pass: the rest goes by it
        passStart = now;
        int work = runTasks() + timers.runDue(now) + queues.pollAll() + memories.pollAll();
        lastPassWork = work;
        if (work > 0) {
            lastWork = now;
        }
        boolean spinning = busy || (spinNanos > 0 && now - lastWork < spinNanos);
        boolean mustNotSleep = spinning || work > 0 || maxSleepNanos == NEVER_BLOCK;
        int ready;
        if (!mustNotSleep) {
            ready = block(now, maxSleepNanos);
        } else {
            ready = lookIfDue(now, spinning, maxSleepNanos);
        }
        if (ready > 0) {
            lastPassWork += ready;
            dispatch(ready);
            lastWork = System.nanoTime();
            return false;
        }
        return spinning;
    }

    /**
     * A pass that does not sleep looks at the epoll set with a zero timeout: always where a socket
     * carries messages or the caller must not block, else once per
     * {@link #SPIN_SYSCALL_INTERVAL_NANOS} while spinning and once per
     * {@link #SLEEPING_LOOK_INTERVAL_NANOS} after work. Returns how many fds are ready (0 without a look).
     */
    private int lookIfDue(long now, boolean spinning, long maxSleepNanos) {
        boolean due = fds.carriesMessages() || maxSleepNanos == NEVER_BLOCK
                || now - lastEpollLook >= (spinning ? SPIN_SYSCALL_INTERVAL_NANOS : SLEEPING_LOOK_INTERVAL_NANOS);
        if (!due) {
            return 0; // nothing there needs a look on every pass
        }
        lastEpollLook = now;
        return epoll.await(0);
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

    /**
     * Arms the CQs and memory sources, polls once more if it armed any, then waits in epoll until an fd is ready,
     * the nearest deadline or {@code maxSleepNanos}; returns how many fds are ready.
     */
    private int block(long now, long maxSleepNanos) {
        boolean armedQueues = queues.armAll(), armedMemory = memories.armAll();
        if ((armedQueues || armedMemory) && queues.pollAll() + memories.pollAll() > 0) {
            lastPassWork++;
            return lookIfDue(now, false, maxSleepNanos);
        }
        long timeout = timers.nanosToNext(now); // nanoseconds: a timer may be due in microseconds
        if (maxSleepNanos != BLOCK_UNTIL_DUE && (timeout < 0 || timeout > maxSleepNanos)) {
            timeout = maxSleepNanos;
        }
        wake.sleepsUntil(timeout < 0 ? WakeSignal.NO_DEADLINE : now + timeout);
        // after the deadline is published: work queued from now on wakes the sleep (wakeup())
        if (!tasks.isEmpty() || stopping || !ownerIdle.getAsBoolean()) {
            wake.awake();
            return epoll.await(0);
        }
        // after the deadline is published: a request posted from now on sees it (requestPosted)
        long ownCap = OWN_COMPLETIONS_MAX_DELAY_MILLIS * 1_000_000L;
        if ((timeout < 0 || timeout > ownCap) && (queues.ownRequestsUnwatched() || memories.ownRequestsUnwatched())) {
            timeout = ownCap;
            wake.sleepsUntil(now + timeout);
        }
        int ready = epoll.awaitNanos(timeout);
        wake.awake();
        wakeups++;
        // the set was just looked at: the pass that handles this wake-up's work need not look again
        lastEpollLook = System.nanoTime();
        return ready;
    }

    private void dispatch(int ready) {
        for (int i = 0; i < ready; i++) {
            int fd = epoll.readyFd(i);
            if (fd == wake.fd()) {
                wake.drain();
            } else {
                fds.dispatch(fd, epoll.readyEvents(i));
            }
        }
    }

    /** Ends the loop under the pass lock, so no driver polls a queue or the batch as they go. */
    private void shutDown() {
        pass.lock();
        try {
            runTasks();
            fds.closeHandlers();
            queues.close();
            devices.closeAll();
            stopped.complete(null);
            epoll.close();
            wake.close();
            LOG.debug("completion loop {} stopped", name);
        } finally {
            pass.unlock();
        }
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("closing {} while stopping the completion loop failed: {}", c, e.getMessage());
        }
    }
}
