package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_cq;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@code struct ibv_cq}: where work completions arrive. Closing it while other threads poll is
 * safe: each poll holds the CQ open for its call (see {@link NativeObject}), the close waits for
 * polls in progress, and later polls throw {@link IllegalStateException}.
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
            MemorySegment errno = Errno.allocate(arena);
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

    public Context context() {
        return context;
    }

    /** Entries the provider actually allocated (at least what was asked for). */
    public int capacity() {
        return capacity;
    }

    /**
     * Polls up to {@code batch.capacity()} completions into {@code batch}; returns how many
     * (0 when the CQ is empty). Allocates nothing.
     */
    public int poll(WorkCompletions batch) {
        return poll(batch, batch.capacity());
    }

    /**
     * Polls up to {@code max} completions (1..{@code batch.capacity()}) into {@code batch}, like
     * ibv_poll_cq's num_entries: a consumer that expects a known number takes no more than that
     * and leaves later completions on the CQ. Allocates nothing.
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
     * Arms the CQ: the next completion (or the next solicited one) produces an event on the
     * completion channel. Poll once more after arming, or a completion that arrived in between
     * is never signalled.
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

    public CompletionChannel channel() {
        return channel;
    }

    /** Counts an event taken from the channel; acknowledges in batches (acking is a mutex round trip). */
    synchronized void eventReceived() {
        if (++unackedEvents >= 64) {
            acknowledgeEvents();
        }
    }

    /** Acknowledges every event received so far (ibv_ack_cq_events). */
    public synchronized void acknowledgeEvents() {
        if (unackedEvents > 0) {
            ack(handle(), unackedEvents);
            unackedEvents = 0;
        }
    }

    private static void ack(MemorySegment cq, int n) {
        try (Arena arena = Arena.ofConfined()) {
            ACK_CQ_EVENTS.invokeExact(Errno.allocate(arena), cq, n);
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
            MemorySegment errno = Errno.allocate(arena);
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
