package dev.verbs4j.nvmf.queue;

import dev.verbs4j.loop.spi.LoopEngine;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTimeoutException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.nvmf.wire.Cqe;
import dev.verbs4j.nvmf.wire.Sqe;
import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CmId;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpCapabilities;
import dev.verbs4j.verbs.QpInitAttributes;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.WcStatus;
import dev.verbs4j.verbs.WorkCompletions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One NVMe-oF/RDMA queue (admin or I/O): an RC QP on its own CQ, a registered array of 64-byte
 * SQEs (one per slot, CID = slot) and of 16-byte response buffers (one receive posted per entry,
 * re-posted as soon as its CQE is read). A send's wr_id is its slot; a receive's wr_id has
 * {@link #RECV} set and carries its buffer index. Not thread-safe: callers hold {@link #lock()}.
 */
public final class NvmfQueue implements AutoCloseable {
    static final long RECV = 1L << 32;
    private static final int POLL_BATCH = 32;

    private final int qid;
    private final int queueSize;
    private final CmId id;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment sqes;
    private final MemorySegment responses;
    private final MemoryRegion sqeMr;
    private final MemoryRegion responseMr;
    private final PreparedSend send;
    private final PreparedReceive receive;
    private final WorkCompletions wc = new WorkCompletions(POLL_BATCH);
    private final SlotTable slots;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile NvmfException failure;
    /** Told once, when the queue breaks: the controller's reconnect starts there. */
    private volatile Consumer<NvmfException> onFailure;
    private boolean closed;
    /** Set when rdma_cm said the connection is gone (the target disconnected, the device went): close does not disconnect. */
    private volatile boolean peerGone;
    /** Set while a completion loop polls the CQ: then only the loop polls it, and waiters drive the loop. */
    private volatile LoopEngine loop;
    /** Commands finished (or the queue failed) so far: what a waiter that drives the loop watches, lock-free. */
    private volatile int progress;
    /** The {@link #progress} the one synchronous waiter of a loop-polled queue last saw (see {@link #awaitProgress}). */
    private int progressSeen;
    private final BooleanSupplier progressed = () -> progress != progressSeen || failure != null;

    /**
     * Creates the CQ and QP on {@code id} (address and route resolved) and posts the receives; the
     * caller then connects the id. {@code queueSize} entries: queueSize - 1 commands in flight.
     * With {@code events} non-null the CQ signals completions there once armed (by the completion loop that polls it).
     */
    public NvmfQueue(CmId id, ProtectionDomain pd, int qid, int queueSize, CompletionChannel events) {
        this.qid = qid;
        this.queueSize = queueSize;
        this.id = id;
        int commands = queueSize - 1;
        this.slots = new SlotTable(commands);
        cq = events == null ? id.context().createCompletionQueue(commands + queueSize)
                : id.context().createCompletionQueue(commands + queueSize, events, 0);
        qp = id.createQueuePair(pd, QpInitAttributes.builder(QpType.RC, cq)
                .capabilities(new QpCapabilities(commands, queueSize, 2, 1, 0)).signalAll(true).build());
        sqes = arena.allocate((long) commands * Sqe.SIZE, 4096);
        responses = arena.allocate((long) queueSize * Cqe.SIZE, 4096);
        sqeMr = pd.register(sqes, EnumSet.noneOf(Access.class));
        responseMr = pd.register(responses, EnumSet.of(Access.LOCAL_WRITE));
        send = qp.prepareSend(1, 2);
        receive = qp.prepareReceive(1, 1);
        for (int i = 0; i < queueSize; i++) {
            postReceive(i);
        }
    }

    public int qid() {
        return qid;
    }

    public int queueSize() {
        return queueSize;
    }

    public int commandSlots() {
        return slots.size();
    }

    public CmId cmId() {
        return id;
    }

    public ReentrantLock lock() {
        return lock;
    }

    /** The registered SQE array; slot s's entry starts at {@link #sqeOffset}(s). */
    public MemorySegment sqes() {
        return sqes;
    }

    public long sqeOffset(int slot) {
        return (long) slot * Sqe.SIZE;
    }

    public int inFlight() {
        return slots.inFlight();
    }

    /** The failure that broke this queue, or null while it works. */
    public NvmfException failure() {
        return failure;
    }

    /** A free slot for the next command, -1 when all are in flight; throws once the queue failed. */
    public int acquire() {
        NvmfException f = failure;
        if (f != null) {
            throw f;
        }
        return slots.acquire();
    }

    /**
     * Posts slot's SQE (written by the caller), with {@code inlineLength} bytes at {@code inlineOffset}
     * in {@code inline} behind it as in-capsule data when inlineLength > 0. With a null listener the
     * caller waits with {@link #await}. SGEs are given by region, which needs no lookup of the
     * region by its lkey.
     */
    public void submit(int slot, MemoryRegion inline, long inlineOffset, int inlineLength, CommandListener listener,
                       long tag) {
        slots.listener[slot] = listener;
        slots.tag[slot] = tag;
        send.wrId(slot);
        send.sge(0, 0, sqeMr, sqeOffset(slot), Sqe.SIZE);
        if (inlineLength > 0) {
            send.sgeCount(0, 2);
            send.sge(0, 1, inline, inlineOffset, inlineLength);
        } else {
            send.sgeCount(0, 1);
        }
        try {
            send.post();
        } catch (RuntimeException e) {
            slots.release(slot);
            throw fail(new NvmfTransportException("queue " + qid + ": cannot post the command", e));
        }
    }

    /** The CQ, for a completion loop to poll ({@link #attach}). */
    public CompletionQueue completionQueue() {
        return cq;
    }

    /**
     * From now on a completion loop polls the CQ and hands what it takes to {@link #deliver};
     * {@link #await} drives the loop instead of polling. Null detaches (before the loop stops).
     * The caller registers the CQ with the loop itself.
     */
    public void attach(LoopEngine engine) {
        loop = engine;
    }

    /** Processes what the CQ holds; returns the number of commands that finished. Not while a loop polls it. */
    public int poll() {
        if (closed) {
            return 0;
        }
        int n;
        try {
            n = cq.poll(wc);
        } catch (RuntimeException e) {
            fail(new NvmfTransportException("queue " + qid + ": polling the CQ failed", e));
            return 0;
        }
        return handle(wc, n);
    }

    /** Processes completions a loop polled from the CQ; returns the number of commands that finished. */
    public int deliver(WorkCompletions batch) {
        return closed ? 0 : handle(batch, batch.count());
    }

    private int handle(WorkCompletions wc, int n) {
        int finished = 0;
        for (int i = 0; i < n; i++) {
            long wrId = wc.wrId(i);
            if (!wc.isSuccess(i)) {
                WcStatus st = wc.statusEnum(i);
                fail(new NvmfTransportException("queue " + qid + ": " + ((wrId & RECV) != 0 ? "receive" : "send")
                        + " completed with " + st + " (the connection to the target is broken"
                        + (st == WcStatus.WR_FLUSH_ERR ? ": the target disconnected or the QP went to error)" : ")")));
                continue;
            }
            if ((wrId & RECV) != 0) {
                finished += response((int) wrId);
            } else {
                finished += mark((int) wrId, SlotTable.SENT);
            }
        }
        if (finished > 0) {
            progress += finished; // under the lock: one writer at a time
        }
        return finished;
    }

    private int response(int buffer) {
        long at = (long) buffer * Cqe.SIZE;
        int cid = Cqe.cid(responses, at);
        int status = Cqe.status(responses, at);
        long result = Cqe.result(responses, at);
        postReceive(buffer);
        if (cid >= slots.size() || (slots.state[cid] & SlotTable.IN_USE) == 0) {
            fail(new NvmfTransportException("queue " + qid + ": response for command id " + cid
                    + ", which is not in flight"));
            return 0;
        }
        slots.status[cid] = status;
        slots.result[cid] = result;
        return mark(cid, SlotTable.RESPONDED);
    }

    private int mark(int slot, int half) {
        int s = slots.state[slot] |= half;
        if (s != SlotTable.DONE) {
            return 0;
        }
        CommandListener l = slots.listener[slot];
        if (l != null) {
            long tag = slots.tag[slot];
            int status = slots.status[slot];
            long result = slots.result[slot];
            slots.release(slot);
            l.completed(slot, tag, status, result);
        }
        return 1;
    }

    private void postReceive(int buffer) {
        receive.wrId(RECV | buffer);
        receive.sge(0, 0, responseMr, (long) buffer * Cqe.SIZE, Cqe.SIZE);
        receive.post();
    }

    /** Whether a command submitted without a listener has both halves in. */
    public boolean isDone(int slot) {
        return slots.state[slot] == SlotTable.DONE;
    }

    public int status(int slot) {
        return slots.status[slot];
    }

    public long result(int slot) {
        return slots.result[slot];
    }

    public void release(int slot) {
        slots.release(slot);
    }

    /**
     * Polls until the listener-less command in {@code slot} is done (then the caller reads status
     * and result and releases it), the queue fails, or {@code deadlineNanos} (System.nanoTime) passes,
     * which fails the queue: its command id cannot be reused safely.
     */
    public void await(int slot, long deadlineNanos, String what) {
        if (loop != null) {
            while (!isDone(slot)) {
                awaitProgress(deadlineNanos, what);
            }
            return;
        }
        int idle = 0;
        while (!isDone(slot)) {
            NvmfException f = failure;
            if (f != null) {
                throw f;
            }
            if (poll() == 0 && ++idle % 64 == 0) {
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw fail(new NvmfTimeoutException("queue " + qid + ": no response to " + what
                            + " within the command timeout"));
                }
                Thread.yield();
            }
        }
    }

    /**
     * Waits until a command finishes or the queue fails, for the caller's synchronous command:
     * it polls once without a loop; with one, it lets go of the lock (so the loop can deliver)
     * and drives the loop meanwhile. Throws the queue's failure, or fails it at the deadline as
     * {@link #await} does. One synchronous waiter per queue at a time (the caller serializes them).
     */
    public void awaitProgress(long deadlineNanos, String what) {
        NvmfException f = failure;
        if (f != null) {
            throw f;
        }
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw fail(new NvmfTimeoutException("queue " + qid + ": no response to " + what
                    + " within the command timeout"));
        }
        LoopEngine engine = loop;
        if (engine == null) {
            poll();
            return;
        }
        progressSeen = progress;
        int holds = lock.getHoldCount();
        for (int i = 0; i < holds; i++) {
            lock.unlock();
        }
        try {
            engine.drive(progressed, left);
            if (!progressed.getAsBoolean()) {
                Thread.yield(); // another thread runs the loop: it delivers, this one looks again
            }
        } finally {
            for (int i = 0; i < holds; i++) {
                lock.lock();
            }
        }
    }

    /**
     * Marks the queue broken from another thread (the keep-alive timer) without touching the slots:
     * waiters see it at once, callbacks get it on the next poll.
     */
    public void markFailed(NvmfException cause) {
        if (failure == null) {
            failure = cause;
            broke(cause);
        }
    }

    /** Who is told (once, on the thread that sees it) when this queue breaks. */
    public void onFailure(Consumer<NvmfException> listener) {
        onFailure = listener;
    }

    private void broke(NvmfException cause) {
        Consumer<NvmfException> l = onFailure;
        if (l != null) {
            l.accept(cause);
        }
    }

    /** Marks the queue broken and tells every command in flight; returns the failure in effect. */
    public NvmfException fail(NvmfException cause) {
        NvmfException first = failure;
        if (first == null) {
            failure = first = cause;
            broke(cause);
        }
        for (int s = 0; s < slots.size(); s++) {
            CommandListener l = slots.listener[s];
            if (slots.state[s] != 0 && l != null) {
                long tag = slots.tag[s];
                slots.release(s);
                l.failed(s, tag, first);
            }
        }
        return first;
    }

    /** rdma_cm reported the connection gone, and its event was taken: {@link #close} has nothing to wait for. */
    public void peerGone() {
        peerGone = true;
    }

    /** Disconnects (best effort, bounded, unless the connection is known gone) and frees everything. */
    public void close(java.time.Duration disconnectTimeout) {
        if (closed) {
            return;
        }
        closed = true;
        if (failure == null) {
            failure = new NvmfTransportException("queue " + qid + " is closed");
        }
        try {
            if (!peerGone) {
                id.disconnect(disconnectTimeout);
            }
        } catch (RuntimeException ignored) {
            // already disconnected by the target, or never connected
        }
        send.close();
        receive.close();
        wc.close();
        id.close();
        cq.close();
        sqeMr.close();
        responseMr.close();
        arena.close();
    }

    @Override
    public void close() {
        close(java.time.Duration.ofSeconds(2));
    }
}
