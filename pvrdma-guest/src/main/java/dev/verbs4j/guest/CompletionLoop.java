package dev.verbs4j.guest;

import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.WorkCompletions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One platform thread that takes completions for any number of channels and delivers them to
 * their futures and listeners: RDMA completion queues, and the sockets of TCP channels (and the
 * control sockets of RDMA channels) through one selector. {@link CompletionMode} decides how it
 * waits when there is nothing to do.
 *
 * <p>In EVENT mode, and in ADAPTIVE mode once the spin budget is spent, every CQ is armed and
 * then polled once more before the thread blocks, so a completion that lands between the last
 * poll and the arm is never left waiting for an event that does not come.
 */
public final class CompletionLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CompletionLoop.class);
    private static final AtomicInteger THREADS = new AtomicInteger();
    /** Longest block in one wait: tasks that cannot wake a completion channel wait at most this. */
    private static final Duration BLOCK_SLICE = Duration.ofMillis(20);
    /** With both CQ events and sockets to wait for, each gets this much in turn. */
    private static final Duration SHARED_SLICE = Duration.ofMillis(1);
    private static final Duration DEFAULT_SPIN = Duration.ofMillis(1);

    private final CompletionMode mode;
    private final long spinNanos;
    private final Thread thread;
    private final Selector selector;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final List<CompletionLoopSource> sources = new ArrayList<>();
    private final Map<String, CompletionLoopDevice> devices = new HashMap<>();
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private volatile boolean stopping;
    private WorkCompletions batch;

    private CompletionLoop(CompletionMode mode, Duration spin) {
        this.mode = mode;
        this.spinNanos = spin.toNanos();
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        this.thread = Thread.ofPlatform().daemon().name("verbs4j-loop-" + mode.label() + "-" + THREADS.incrementAndGet())
                .unstarted(this::run);
    }

    /** Starts a loop; ADAPTIVE spins for 1 ms after the last completion before it blocks. */
    public static CompletionLoop start(CompletionMode mode) {
        return start(mode, DEFAULT_SPIN);
    }

    /** Starts a loop; {@code spin} is ADAPTIVE's spin budget (ignored by the other modes). */
    public static CompletionLoop start(CompletionMode mode, Duration spin) {
        CompletionLoop loop = new CompletionLoop(mode, spin);
        loop.thread.start();
        LOG.debug("completion loop {} started ({})", loop.thread.getName(), mode);
        return loop;
    }

    public CompletionMode mode() {
        return mode;
    }

    /** True on the loop's own thread (where callbacks run and nothing may block). */
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    public boolean isRunning() {
        return !stopped.isDone();
    }

    /** Runs {@code task} on the loop thread soon. */
    void execute(Runnable task) {
        if (!isRunning()) {
            throw new ChannelException(ChannelError.CLOSED, "the completion loop is stopped");
        }
        tasks.add(task);
        selector.wakeup();
    }

    /** Runs {@code task} on the loop thread and waits for it; runs it here if the loop is this thread or gone. */
    void runAndWait(Runnable task, Duration timeout) {
        if (inLoop() || !isRunning()) {
            task.run();
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
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

    /** Registers a socket with the selector (on the loop thread); its key's attachment is {@code handler}. */
    SelectionKey register(SelectableChannel socket, int ops, CompletionLoopSelectable handler) {
        SelectionKey[] key = new SelectionKey[1];
        runAndWait(() -> {
            try {
                key[0] = socket.register(selector, ops, handler);
            } catch (ClosedChannelException e) {
                throw new ChannelException(ChannelError.PEER_LOST, "socket closed before it was registered", e);
            }
        }, Duration.ofSeconds(10));
        return key[0];
    }

    /** Wakes the selector so a changed interest set takes effect. */
    void wakeup() {
        selector.wakeup();
    }

    void addSource(CompletionLoopSource source) {
        runAndWait(() -> {
            sources.add(source);
            if (mode != CompletionMode.BUSY_POLL) {
                source.queue().requestNotification(false);
            }
        }, Duration.ofSeconds(10));
    }

    void removeSource(CompletionLoopSource source) {
        runAndWait(() -> sources.remove(source), Duration.ofSeconds(10));
    }

    /** The loop's shared view of a device, opened on first use; closed when the loop stops. */
    synchronized CompletionLoopDevice device(String name) {
        if (!isRunning()) {
            throw new ChannelException(ChannelError.CLOSED, "the completion loop is stopped");
        }
        return devices.computeIfAbsent(name, CompletionLoopDevice::new);
    }

    /** Stops the thread (bounded wait) and closes the devices; channels should be closed first. */
    @Override
    public void close() {
        stopping = true;
        selector.wakeup();
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
        batch = new WorkCompletions(32);
        long lastWork = System.nanoTime();
        try {
            while (!stopping) {
                runTasks();
                int work = pollQueues() + select(0);
                if (work > 0) {
                    lastWork = System.nanoTime();
                } else if (mode == CompletionMode.BUSY_POLL
                        || (mode == CompletionMode.ADAPTIVE && System.nanoTime() - lastWork < spinNanos)) {
                    Thread.onSpinWait();
                } else {
                    block();
                    lastWork = System.nanoTime();
                }
            }
        } catch (Throwable t) {
            LOG.error("completion loop {} failed", thread.getName(), t);
        } finally {
            shutDown();
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("a completion loop task failed", e);
            }
        }
    }

    /** Drains every CQ; returns how many completions were handled. */
    private int pollQueues() {
        int total = 0;
        for (int i = 0; i < sources.size(); i++) {
            CompletionLoopSource source = sources.get(i);
            int n;
            while ((n = poll(source)) > 0) {
                source.deliver(batch);
                total += n;
                if (i >= sources.size() || sources.get(i) != source) {
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

    /** Selects with a timeout in ms (0 = don't wait) and dispatches; returns the ready keys. */
    private int select(long timeoutMillis) throws IOException {
        if (selector.keys().isEmpty() && timeoutMillis == 0) {
            return 0;
        }
        int n = timeoutMillis == 0 ? selector.selectNow() : selector.select(timeoutMillis);
        if (n == 0) {
            return 0;
        }
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
            SelectionKey key = it.next();
            it.remove();
            if (key.isValid() && key.attachment() instanceof CompletionLoopSelectable handler) {
                try {
                    handler.onSelected(key);
                } catch (RuntimeException e) {
                    LOG.warn("a socket handler failed", e);
                }
            }
        }
        return n;
    }

    /** Arms the CQs, polls once more, then waits for a CQ event or a socket (or a task). */
    private void block() throws IOException {
        if (!sources.isEmpty()) {
            for (CompletionLoopSource source : sources) {
                try {
                    source.queue().requestNotification(false);
                } catch (RuntimeException e) {
                    LOG.warn("arming a completion queue failed", e);
                }
            }
            if (pollQueues() > 0) {
                return;
            }
        }
        if (!tasks.isEmpty()) {
            return;
        }
        List<CompletionLoopDevice> waitOn = devicesWithQueues();
        boolean sockets = !selector.keys().isEmpty();
        if (waitOn.isEmpty()) {
            select(BLOCK_SLICE.toMillis());
            return;
        }
        Duration slice = sockets || waitOn.size() > 1 ? SHARED_SLICE : BLOCK_SLICE;
        for (CompletionLoopDevice device : waitOn) {
            CompletionQueue signalled = device.events().await(slice);
            if (signalled != null) {
                return; // the next pass polls it dry; the pass after that re-arms
            }
        }
        if (sockets) {
            select(SHARED_SLICE.toMillis());
        }
    }

    private List<CompletionLoopDevice> devicesWithQueues() {
        List<CompletionLoopDevice> result = new ArrayList<>(1);
        synchronized (this) {
            for (CompletionLoopDevice d : devices.values()) {
                for (CompletionLoopSource s : sources) {
                    if (s.queue().context() == d.context()) {
                        result.add(d);
                        break;
                    }
                }
            }
        }
        return result;
    }

    private void shutDown() {
        runTasks();
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof CompletionLoopSelectable handler && handler instanceof AutoCloseable c) {
                closeQuietly(c);
            }
        }
        try {
            selector.close();
        } catch (IOException e) {
            LOG.debug("closing the selector failed", e);
        }
        batch.close();
        synchronized (this) {
            stopped.complete(null);
            for (CompletionLoopDevice d : devices.values()) {
                closeQuietly(d);
            }
            devices.clear();
        }
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
