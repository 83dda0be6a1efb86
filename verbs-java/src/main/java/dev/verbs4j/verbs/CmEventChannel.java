package dev.verbs4j.verbs;

import dev.verbs4j.unix.EventFd;
import dev.verbs4j.unix.ReadableWait;
import dev.verbs4j.unix.Errno;
import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.rdma_cm_event;
import dev.verbs4j.bindings.rdma_cm_id;
import dev.verbs4j.bindings.rdma_event_channel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * {@code struct rdma_event_channel}: where the events of the {@link CmId}s created on it arrive.
 * Every event is copied and acknowledged as soon as it is read, so no id's destruction ever
 * waits on an unacknowledged event.
 *
 * <p><b>Threads.</b> Several threads may wait at once, each for its own ids: one of them reads the
 * fd and keeps the events of other ids, in order, for their waiters.
 *
 * <p><b>Ownership.</b> The caller owns the channel and closes it last. A channel closes only after
 * all its ids (it throws {@link IllegalStateException} otherwise), including those of connect
 * requests that were read but never taken: accept or reject and close each of them.
 */
public final class CmEventChannel extends NativeObject {
    private static final MethodHandle CREATE =
            NativeLibraries.rdmacm("rdma_create_event_channel", Rdma.rdma_create_event_channel$descriptor());
    private static final MethodHandle DESTROY =
            NativeLibraries.rdmacm("rdma_destroy_event_channel", Rdma.rdma_destroy_event_channel$descriptor());
    private static final MethodHandle GET_EVENT =
            NativeLibraries.rdmacm("rdma_get_cm_event", Rdma.rdma_get_cm_event$descriptor());
    private static final MethodHandle ACK_EVENT =
            NativeLibraries.rdmacm("rdma_ack_cm_event", Rdma.rdma_ack_cm_event$descriptor());

    private final int fd;
    private final Map<Long, CmId> ids = new ConcurrentHashMap<>();
    /** Guards the reader role: one thread at a time polls the fd and reads, the others wait on {@code arrived}. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private boolean readerActive;
    private final Deque<CmEvent> pending = new ConcurrentLinkedDeque<>();
    /** Cuts the reader's wait short for {@link #wakeUp}. */
    private final EventFd wake = new EventFd();
    private final ReadableWait readerWait = new ReadableWait();
    /** Calls of {@link #wakeUp} so far: a waiter that sees it change returns. Guarded by {@code lock}. */
    private long wakeUps;

    private CmEventChannel(MemorySegment channel) {
        super("rdma_cm event channel", channel, null);
        this.fd = rdma_event_channel.fd(channel);
    }

    /**
     * {@code rdma_create_event_channel}.
     *
     * @return the new channel, owned by the caller
     * @throws VerbsException if librdmacm cannot create it (e.g. no rdma_cm support in the kernel)
     */
    public static CmEventChannel create() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment channel = (MemorySegment) CREATE.invokeExact(errno);
            if (CmNative.isNull(channel)) {
                int e = ErrnoCapture.read(errno);
                String hint = e == Errno.ENODEV || e == Errno.ENOENT
                        ? "/dev/infiniband/rdma_cm is missing: the kernel has no RDMA CM (modprobe rdma_ucm), "
                        + "or there is no RDMA device; use a host with one or the soft-RoCE rig (ci/rig)"
                        : Hints.hint("rdma_create_event_channel", e);
                throw new VerbsException("cannot create an rdma_cm event channel", "rdma_create_event_channel", e, hint);
            }
            return new CmEventChannel(channel.reinterpret(rdma_event_channel.sizeof()));
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * {@code rdma_create_id}: a new id whose events arrive on this channel.
     *
     * @param portSpace TCP for RC connections, UDP for UD
     * @return the new id, owned by the caller, who closes it before this channel
     * @throws NullPointerException if {@code portSpace} is null
     * @throws IllegalStateException if this channel is closed
     * @throws VerbsException if the verb fails
     */
    public CmId createId(CmPortSpace portSpace) {
        return CmId.create(this, portSpace);
    }

    /**
     * The channel's file descriptor, for callers that multiplex it themselves.
     *
     * @return the fd; owned by the channel and closed with it
     */
    public int fd() {
        return fd;
    }

    /**
     * The next event of any id on this channel, or null when none arrives within {@code timeout}.
     * Events already kept for an id's waiter come first.
     *
     * @param timeout how long to wait, positive
     * @return the event (already acknowledged), or null on timeout
     * @throws IllegalStateException if this channel is closed
     * @throws VerbsException if reading the event fails
     */
    public CmEvent next(Duration timeout) {
        return nextMatching(event -> true, timeout);
    }

    /** The next event concerning {@code id} (as id or as listener), or null after {@code timeout}. */
    CmEvent nextFor(CmId id, Duration timeout) {
        return nextMatching(event -> event.id() == id || event.listenId() == id, timeout);
    }

    /**
     * The next event that {@code wanted} accepts, or null when none arrives within {@code timeout};
     * the events it refuses are kept for their ids' waiters. For a watcher of established
     * connections (DISCONNECTED, DEVICE_REMOVAL) beside the threads that connect other ids.
     *
     * @param wanted  called once for each event read or kept, on the reading thread
     * @param timeout how long to wait, positive
     * @return the event (already acknowledged), or null on timeout or {@link #wakeUp}
     * @throws IllegalStateException if this channel is closed, or the thread is interrupted
     * @throws VerbsException if reading the event fails
     */
    public CmEvent nextMatching(Predicate<CmEvent> wanted, Duration timeout) {
        return nextMatching(wanted, timeout, () -> false);
    }

    /**
     * As {@link #nextMatching(Predicate, Duration)}, and null as soon as {@code stopped} is true: it
     * is asked once this wait counts {@link #wakeUp}s, so a thread that sets its flag and then calls
     * wakeUp ends this wait whether it began before or after.
     *
     * @param wanted  called once for each event read or kept, on the reading thread
     * @param timeout how long to wait, positive
     * @param stopped asked before each wait for the fd or for another reader
     * @return the event (already acknowledged), or null on timeout, {@link #wakeUp} or stop
     * @throws IllegalStateException if this channel is closed, or the thread is interrupted
     * @throws VerbsException if reading the event fails
     */
    public CmEvent nextMatching(Predicate<CmEvent> wanted, Duration timeout, BooleanSupplier stopped) {
        handle();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for an rdma_cm event", e);
        }
        long woken = wakeUps;
        try {
            while (true) {
                CmEvent kept = takePending(wanted);
                if (kept != null) {
                    return kept;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || wakeUps != woken || stopped.getAsBoolean()) {
                    return null;
                }
                if (readerActive) {
                    // another thread reads the fd and hands us what is ours
                    arrived.awaitNanos(left);
                    continue;
                }
                CmEvent event = readAsTheReader(Duration.ofNanos(left));
                if (event != null) {
                    if (wanted.test(event)) {
                        return event;
                    }
                    pending.addLast(event);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for an rdma_cm event", e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for the fd without holding the lock, so other waiters can take kept events meanwhile;
     * returns the event read, or null when none came in time. Called and returns with the lock held.
     */
    private CmEvent readAsTheReader(Duration timeout) {
        readerActive = true;
        lock.unlock();
        try {
            if (readerWait.await(fd, wake.fd(), timeout.toNanos(), true)) {
                return readOne();
            }
            wake.drain();
            return null;
        } finally {
            lock.lock();
            readerActive = false;
            arrived.signalAll();
        }
    }

    /**
     * Makes every wait on this channel under way now ({@link #nextMatching}, and the waits of its
     * ids) return at once, with null, or a timeout, where no event of theirs came: a watcher's way
     * to stop without waiting out its timeout.
     */
    public void wakeUp() {
        lock.lock();
        try {
            wakeUps++;
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
        wake.signal();
    }

    private CmEvent takePending(Predicate<CmEvent> wanted) {
        for (Iterator<CmEvent> it = pending.iterator(); it.hasNext(); ) {
            CmEvent event = it.next();
            if (wanted.test(event)) {
                it.remove();
                return event;
            }
        }
        return null;
    }

    /** Reads one event (the fd is readable), copies it and acknowledges it at once. */
    private CmEvent readOne() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            int rc = (int) GET_EVENT.invokeExact(errno, handle(), out);
            Calls.checkStatus(rc, errno, "rdma_get_cm_event", "cannot read an rdma_cm event");
            MemorySegment event = out.get(ValueLayout.ADDRESS, 0).reinterpret(rdma_cm_event.sizeof());
            CmEvent copy;
            try {
                copy = copy(event);
            } finally {
                int ackRc = (int) ACK_EVENT.invokeExact(errno, event);
                Calls.checkStatus(ackRc, errno, "rdma_ack_cm_event", "cannot acknowledge an rdma_cm event");
            }
            return copy;
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    private CmEvent copy(MemorySegment event) {
        CmEventType type = CmEventType.of(rdma_cm_event.event(event));
        MemorySegment idPointer = rdma_cm_event.id(event).reinterpret(rdma_cm_id.sizeof());
        CmPortSpace portSpace = CmPortSpace.of(rdma_cm_id.ps(idPointer));
        MemorySegment listenPointer = rdma_cm_event.listen_id(event);
        CmId listener = CmNative.isNull(listenPointer) ? null : ids.get(listenPointer.address());
        // a connect request brings a new id that librdmacm created on this channel
        CmId id = type == CmEventType.CONNECT_REQUEST
                ? new CmId(this, idPointer, portSpace)
                : ids.get(idPointer.address());
        MemorySegment param = rdma_cm_event.param(event);
        CmConnectionParameters connection = portSpace.isDatagram()
                ? null : CmConnectionParameters.fromNative(rdma_cm_event.param.conn(param));
        CmDatagramParameters datagram = portSpace.isDatagram()
                ? CmDatagramParameters.fromNative(rdma_cm_event.param.ud(param)) : null;
        return new CmEvent(type, rdma_cm_event.status(event), id, listener, connection, datagram);
    }

    void register(CmId id, MemorySegment pointer) {
        ids.put(pointer.address(), id);
    }

    /** Called when an id is destroyed: its address may be reused, and its kept events are moot. */
    void forget(CmId id, MemorySegment pointer) {
        ids.remove(pointer.address(), id);
        pending.removeIf(event -> event.id() == id);
    }

    MemorySegment pointer() {
        return handle();
    }

    @Override
    void destroy(MemorySegment channel) {
        try (Arena arena = Arena.ofConfined()) {
            DESTROY.invokeExact(ErrnoCapture.allocate(arena), channel);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        } finally {
            wake.close();
        }
    }

    @Override
    public String toString() {
        return "CmEventChannel[fd " + fd + (isClosed() ? ", closed]" : "]");
    }
}
