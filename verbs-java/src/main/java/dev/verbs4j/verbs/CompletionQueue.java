package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_cq;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@code struct ibv_cq}: where work completions arrive, from
 * {@link Context#createCompletionQueue(int)}.
 *
 * <p><b>Ownership.</b> The caller owns it. QPs and SRQs that complete into it do not close it:
 * close them first (close refuses while they are open), then the CQ, then its
 * {@link CompletionChannel} if it has one, then the {@link Context}. Events taken from the channel
 * and not yet acknowledged are acknowledged by close.
 *
 * <p><b>Threads.</b> Polls may come from several threads (the provider locks the CQ), each with
 * its own {@link WorkCompletions}. Closing it while other threads poll is safe: each poll holds the
 * CQ open for its call (see {@code NativeObject}), the close waits for polls in progress, and later
 * polls throw {@link IllegalStateException}.
 *
 * <p><b>Hot path.</b> {@link #poll(WorkCompletions)} allocates nothing: it calls the provider's
 * poll function directly into the batch's native array.
 */
public final class CompletionQueue extends NativeObject {
    private static final MethodHandle CREATE_CQ = NativeLibraries.verbs("ibv_create_cq", Rdma.ibv_create_cq$descriptor());
    private static final MethodHandle DESTROY_CQ =
            NativeLibraries.verbs("ibv_destroy_cq", Rdma.ibv_destroy_cq$descriptor());
    private static final MethodHandle ACK_CQ_EVENTS =
            NativeLibraries.verbs("ibv_ack_cq_events", Rdma.ibv_ack_cq_events$descriptor());

    private final Context context;
    private final CompletionChannel channel;
    private final MemorySegment pollCqFn;
    private final long pollCqAt;
    private final MemorySegment reqNotifyCqFn;
    private final int capacity;
    /** Events taken from the channel and not yet acknowledged; destroy would wait for them forever. */
    private int unackedEvents;

    CompletionQueue(Context context, int minEntries, CompletionChannel channel, int vector) {
        super("completion queue", create(context, minEntries, channel, vector), context);
        this.context = context;
        this.channel = channel;
        this.pollCqFn = context.ops().pollCq;
        this.pollCqAt = pollCqFn.address();
        this.reqNotifyCqFn = context.ops().reqNotifyCq;
        this.capacity = ibv_cq.cqe(handle());
        if (channel != null) {
            channel.attach(this);
        }
    }

    private static MemorySegment create(Context context, int minEntries, CompletionChannel channel, int vector) {
        int maxCqe = context.queryDevice().maxCqe();
        if (minEntries <= 0 || minEntries > maxCqe) {
            throw new IllegalArgumentException("a CQ on " + context.name() + " holds 1.." + maxCqe
                    + " entries (max_cqe), asked for " + minEntries);
        }
        if (channel != null && (vector < 0 || vector >= context.completionVectors())) {
            throw new IllegalArgumentException("completion vector " + vector + " outside 0.."
                    + (context.completionVectors() - 1) + " (num_comp_vectors)");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment ch = channel == null ? MemorySegment.NULL : channel.pointer();
            MemorySegment cq;
            synchronized (context) { // its close waits: the context stays valid during the call
                cq = (MemorySegment) CREATE_CQ.invokeExact(errno, context.pointer(), minEntries,
                        MemorySegment.NULL, ch, vector);
            }
            return Calls.checkPointer(cq, errno, "ibv_create_cq", "cannot create a CQ of " + minEntries
                    + " entries (completion vector " + vector + ")").reinterpret(ibv_cq.sizeof());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * The device this CQ was created on.
     *
     * @return its context (not owned by the CQ)
     */
    public Context context() {
        return context;
    }

    /**
     * Entries the provider actually allocated (at least what was asked for).
     *
     * @return {@code ibv_cq.cqe}, the number of completions it holds before it overruns
     */
    public int capacity() {
        return capacity;
    }

    /**
     * Polls up to {@code batch.capacity()} completions into {@code batch} ({@code ibv_poll_cq});
     * returns how many (0 when the CQ is empty). Allocates nothing.
     *
     * @param batch where the completions are written; its previous contents are replaced
     * @return the number of completions taken, 0 to {@code batch.capacity()}; also {@code batch.count()}
     * @throws IllegalStateException if this CQ or the batch is closed
     * @throws VerbsException if the provider reports an error (the CQ overran or the device failed)
     */
    public int poll(WorkCompletions batch) {
        return poll(batch, batch.capacity());
    }

    /**
     * Polls up to {@code max} completions (1..{@code batch.capacity()}) into {@code batch}, like
     * ibv_poll_cq's num_entries: a consumer that expects a known number takes no more than that
     * and leaves later completions on the CQ. Allocates nothing.
     *
     * @param batch where the completions are written; its previous contents are replaced
     * @param max   the most completions to take, 1 to {@code batch.capacity()}
     * @return the number of completions taken, 0 to {@code max}; also {@code batch.count()}
     * @throws IllegalArgumentException if {@code max} is outside 1..{@code batch.capacity()}
     * @throws IllegalStateException if this CQ or the batch is closed
     * @throws VerbsException if the provider reports an error (the CQ overran or the device failed)
     */
    public int poll(WorkCompletions batch, int max) {
        // checks and failure paths live in small batch methods that C1 inlines here
        long completions = batch.addressFor(max);
        long cq = enter(); // held open during the call: a close on another thread waits for it
        int n;
        try {
            n = ContextOps.pollCq(pollCqFn, pollCqAt, cq, max, completions);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        } finally {
            leave();
        }
        return batch.filled(n);
    }

    /**
     * Arms the CQ ({@code ibv_req_notify_cq}): the next completion (or the next solicited one)
     * produces an event on the completion channel. Poll once more after arming, or a completion that
     * arrived in between is never signalled. Safe from any thread; allocates nothing.
     *
     * @param solicitedOnly true to be woken only by solicited receives and by errors
     * @throws IllegalStateException if this CQ has no completion channel or is closed
     * @throws VerbsException if the provider refuses
     */
    public void requestNotification(boolean solicitedOnly) {
        if (channel == null) {
            throw new IllegalStateException("this CQ has no completion channel; create it with one to use events");
        }
        int rc;
        MemorySegment cq = enterHandle();
        try {
            rc = (int) ContextOps.REQ_NOTIFY_CQ.invokeExact(reqNotifyCqFn, cq, solicitedOnly ? 1 : 0);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        } finally {
            leave();
        }
        if (rc != 0) {
            throw Hints.exception("cannot arm the CQ", "ibv_req_notify_cq", rc);
        }
    }

    /**
     * The channel this CQ's events arrive on.
     *
     * @return the channel given at creation (not owned by the CQ), or null for a polled-only CQ
     */
    public CompletionChannel channel() {
        return channel;
    }

    /** Counts an event taken from the channel; acknowledges in batches (acking is a mutex round trip). */
    synchronized void eventReceived() {
        if (++unackedEvents >= 64) {
            acknowledgeEvents();
        }
    }

    /**
     * Acknowledges every event received so far ({@code ibv_ack_cq_events}). Events are otherwise
     * acknowledged in batches of 64 and at close; call this to settle them sooner. Thread-safe; does
     * nothing on a closed CQ (its close acknowledged them).
     */
    public synchronized void acknowledgeEvents() {
        if (unackedEvents > 0) {
            ack(handle(), unackedEvents);
            unackedEvents = 0;
        }
    }

    private static void ack(MemorySegment cq, int n) {
        try (Arena arena = Arena.ofConfined()) {
            ACK_CQ_EVENTS.invokeExact(ErrnoCapture.allocate(arena), cq, n);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    MemorySegment pointer() {
        return handle();
    }

    @Override
    void destroy(MemorySegment cq) {
        synchronized (this) {
            if (unackedEvents > 0) {
                ack(cq, unackedEvents);
                unackedEvents = 0;
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) DESTROY_CQ.invokeExact(errno, cq);
            Calls.checkStatus(rc, errno, "ibv_destroy_cq", "cannot destroy the CQ");
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
        if (channel != null) {
            channel.detach(cq.address());
        }
    }
}
