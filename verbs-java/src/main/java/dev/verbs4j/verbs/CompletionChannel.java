package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_comp_channel;
import dev.verbs4j.unix.EventFd;
import dev.verbs4j.unix.ReadableWait;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code struct ibv_comp_channel}: a file descriptor that becomes readable when an armed CQ
 * gets a completion, from {@link Context#createCompletionChannel()}. Event mode: arm, poll the CQ
 * empty, wait here, then poll again.
 *
 * <p><b>Ownership.</b> The caller owns it. CQs bound to it do not close it; close them first
 * (while any is open, close fails with a {@link VerbsException}, EBUSY, and the channel stays
 * open), then the channel, then the {@link Context}.
 *
 * <p><b>Threads.</b> One thread waits on a channel at a time ({@link #await(Duration)} and
 * {@link #takeEvent()} share scratch memory); {@link #wakeup()} may be called from any thread.
 * Waiting allocates nothing.
 */
public final class CompletionChannel extends NativeObject {
    private static final MethodHandle CREATE =
            NativeLibraries.verbs("ibv_create_comp_channel", Rdma.ibv_create_comp_channel$descriptor());
    private static final MethodHandle DESTROY =
            NativeLibraries.verbs("ibv_destroy_comp_channel", Rdma.ibv_destroy_comp_channel$descriptor());
    private static final MethodHandle GET_CQ_EVENT =
            NativeLibraries.verbs("ibv_get_cq_event", Rdma.ibv_get_cq_event$descriptor());

    private final Map<Long, CompletionQueue> queues = new ConcurrentHashMap<>();
    private final int fd;
    /** errno capture, poll scratch and the two out-pointers of ibv_get_cq_event: waits allocate nothing. */
    private final Arena scratchArena = Arena.ofShared();
    private final ReadableWait wait = new ReadableWait();
    private final MemorySegment errno = ErrnoCapture.allocate(scratchArena);
    private final MemorySegment cqOut = scratchArena.allocate(ValueLayout.ADDRESS);
    private final MemorySegment ctxOut = scratchArena.allocate(ValueLayout.ADDRESS);
    /** Cancels a blocked await ({@link #wakeup}): an eventfd polled beside the channel's fd. */
    private final EventFd wake = new EventFd();

    CompletionChannel(Context context) {
        super("completion channel", create(context), context);
        this.fd = ibv_comp_channel.fd(handle());
    }

    private static MemorySegment create(Context context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment ch;
            synchronized (context) { // its close waits: the parent stays valid during the call
                ch = (MemorySegment) CREATE.invokeExact(errno, context.pointer());
            }
            return Calls.checkPointer(ch, errno, "ibv_create_comp_channel", "cannot create a completion channel")
                    .reinterpret(ibv_comp_channel.sizeof());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * The channel's file descriptor, for callers that multiplex it themselves (epoll, poll).
     *
     * @return the fd; owned by the channel and closed with it, so do not close it yourself
     */
    public int fd() {
        return fd;
    }

    /**
     * Waits for the next CQ event and returns the CQ it belongs to, or null when {@code timeout}
     * passes first or {@link #wakeup()} is called. The event is counted for acknowledgement by that
     * CQ; re-arm it before waiting again.
     *
     * @param timeout how long to wait at most, or null to wait forever
     * @return the CQ that has a completion, or null on timeout or wakeup
     * @throws IllegalStateException if this channel is closed, or the event names a CQ not created on it
     * @throws VerbsException if reading the event fails
     */
    public CompletionQueue await(Duration timeout) {
        return await(timeout == null ? -1 : timeout.toNanos());
    }

    /**
     * {@link #await(Duration)} without the Duration. Allocates nothing.
     *
     * @param timeoutNanos how long to wait at most in nanoseconds; negative waits forever
     * @return the CQ that has a completion, or null on timeout or wakeup
     * @throws IllegalStateException if this channel is closed, or the event names a CQ not created on it
     * @throws VerbsException if reading the event fails
     */
    public CompletionQueue await(long timeoutNanos) {
        return await(timeoutNanos, true);
    }

    /**
     * As {@link #await(long)}, for a thread that is ended only by {@link #wakeup()} or
     * {@link #close()}: it sleeps in one {@code poll} call, where {@link #await(long)} wakes every
     * 100 ms to notice a Java interrupt. So an idle waiter costs no CPU. Allocates nothing.
     *
     * @param timeoutNanos how long to wait at most in nanoseconds; negative waits forever
     * @return the CQ that has a completion, or null on timeout or wakeup
     * @throws IllegalStateException if this channel is closed, or the event names a CQ not created on it
     * @throws VerbsException if reading the event fails
     */
    public CompletionQueue awaitUninterruptibly(long timeoutNanos) {
        return await(timeoutNanos, false);
    }

    private CompletionQueue await(long timeoutNanos, boolean interruptible) {
        enter(); // a close on another thread wakes this wait (closing) and waits for it to end
        try {
            if (!wait.await(fd, wake.fd(), timeoutNanos, interruptible)) {
                wake.drain();
                return null;
            }
            return takeEvent();
        } finally {
            leave();
        }
    }

    /**
     * Ends a blocked {@link #await} at once (it returns null), from any thread; with no await
     * blocked, the next one returns null at once. {@link #close()} does this too: an await
     * blocked during a close returns null, and one begun after it throws IllegalStateException.
     * Allocates nothing.
     */
    public void wakeup() {
        wake.signal();
    }

    /**
     * Takes the next CQ event without waiting, for a loop that waits on {@link #fd()} itself with
     * the fd set O_NONBLOCK: the CQ it belongs to (counted for acknowledgement, as in await), or
     * null when no event is pending. Allocates nothing.
     *
     * @return the CQ that has a completion, or null when no event is pending
     * @throws IllegalStateException if this channel is closed, or the event names a CQ not created on it
     * @throws VerbsException if {@code ibv_get_cq_event} fails with anything but EAGAIN
     */
    public CompletionQueue takeEvent() {
        int rc;
        MemorySegment channel = enterHandle();
        try {
            rc = (int) GET_CQ_EVENT.invokeExact(errno, channel, cqOut, ctxOut);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        } finally {
            leave();
        }
        if (rc != 0 && ErrnoCapture.read(errno) == Errno.EAGAIN) {
            return null;
        }
        Calls.checkStatus(rc, errno, "ibv_get_cq_event", "waiting for a completion event failed");
        long cqAddress = cqOut.get(ValueLayout.ADDRESS, 0).address();
        CompletionQueue cq = queues.get(cqAddress);
        if (cq == null) {
            throw new IllegalStateException("event for an unknown CQ at 0x" + Long.toHexString(cqAddress));
        }
        cq.eventReceived();
        return cq;
    }

    void attach(CompletionQueue cq) {
        queues.put(cq.pointer().address(), cq);
    }

    void detach(long cqAddress) {
        queues.remove(cqAddress);
    }

    MemorySegment pointer() {
        return handle();
    }

    /** A blocked await returns null; the close then waits for it to leave. */
    @Override
    void closing() {
        wakeup();
    }

    @Override
    void destroy(MemorySegment ch) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) DESTROY.invokeExact(errno, ch);
            Calls.checkStatus(rc, errno, "ibv_destroy_comp_channel", "cannot destroy the completion channel");
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
        wake.close();
        scratchArena.close();
    }
}
