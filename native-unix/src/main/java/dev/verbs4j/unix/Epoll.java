package dev.verbs4j.unix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.locks.ReentrantLock;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * An epoll(7) set. Each registered fd carries its own number as its data, so the ready list names
 * the fds directly. add/modify/remove may be called from any thread (the kernel serialises them);
 * {@link #await} and the ready-list accessors belong to the one thread that waits.
 */
public final class Epoll implements AutoCloseable {
    public static final int IN = 0x1, OUT = 0x4, ERR = 0x8, HUP = 0x10, RDHUP = 0x2000;
    private static final int CTL_ADD = 1, CTL_DEL = 2, CTL_MOD = 3, EPOLL_CLOEXEC = 0x80000;
    /** struct epoll_event is packed on x86-64 (12 bytes), naturally aligned elsewhere (16). */
    private static final boolean PACKED = System.getProperty("os.arch").matches("amd64|x86_64");
    private static final long EVENT_SIZE = PACKED ? 12 : 16, DATA_OFFSET = PACKED ? 4 : 8;

    private static final MethodHandle CREATE = Libc.function("epoll_create1",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle CTL = Libc.function("epoll_ctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    /** The ready list's address as a long, as the socket calls take theirs ({@link NativeSocket}). */
    private static final MethodHandle WAIT = Libc.function("epoll_wait",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));
    /**
     * epoll_wait with a timespec (Linux 5.11, glibc 2.35): waits shorter than a millisecond. Null
     * with an older glibc; {@link #nanoWaits} false once an older kernel said ENOSYS. Without it,
     * a wait is rounded up to whole milliseconds.
     */
    private static final MethodHandle WAIT_NANOS = Libc.functionIfPresent("epoll_pwait2",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static volatile boolean nanoWaits = WAIT_NANOS != null;
    /** The waits go without errno, and look once more with it when they fail ({@link Libc#functionWithoutErrno}). */
    private static final MethodHandle WAIT_FAST = Libc.functionWithoutErrno("epoll_wait",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));
    private static final MethodHandle WAIT_NANOS_FAST = WAIT_NANOS == null ? null
            : Libc.functionWithoutErrno("epoll_pwait2", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT,
                    JAVA_LONG, JAVA_LONG));

    private final int epfd;
    private final int capacity;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment ready;
    /**
     * The event struct epoll_ctl reads, under {@link #controlLock}. Owned by the GC, not freed by
     * close(): a change that races with close fails in the kernel (EBADF), as it did before.
     */
    private final MemorySegment controlEvent = Arena.ofAuto().allocate(16, 8);
    private final ReentrantLock controlLock = new ReentrantLock();
    private int readyCount;
    /** Where {@link #await} captures errno: it has one caller at a time. */
    private final MemorySegment waitCallState = Libc.newCallState();
    /** The struct timespec of {@link #awaitNanos}; its caller's alone, as the ready list is. */
    private final MemorySegment waitTimeout = Arena.ofAuto().allocate(16, 8);

    /** A set whose waits report up to {@code capacity} ready fds at a time. */
    public Epoll(int capacity) {
        this.capacity = capacity;
        this.ready = arena.allocate(EVENT_SIZE * capacity, 8);
        try {
            epfd = (int) CREATE.invokeExact(Libc.errno(), EPOLL_CLOEXEC);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        if (epfd < 0) {
            arena.close();
            throw LinuxCallException.last("cannot create an epoll set", "epoll_create1");
        }
    }

    public void add(int fd, int events) {
        if (control(CTL_ADD, fd, events) < 0) {
            throw LinuxCallException.last("cannot add fd " + fd + " to the epoll set", "epoll_ctl");
        }
    }

    public void modify(int fd, int events) {
        if (control(CTL_MOD, fd, events) < 0) {
            throw LinuxCallException.last("cannot change the events of fd " + fd, "epoll_ctl");
        }
    }

    public void remove(int fd) {
        if (control(CTL_DEL, fd, 0) < 0) {
            throw LinuxCallException.last("cannot remove fd " + fd + " from the epoll set", "epoll_ctl");
        }
    }

    /**
     * One epoll_ctl with the set's one event struct: a socket read by a thread of its own leaves
     * the set and comes back (up to a hundred times a second), so a call allocates nothing. The
     * lock is held only across the call; the kernel serialises the set's changes anyway.
     */
    private int control(int op, int fd, int events) {
        controlLock.lock();
        try {
            controlEvent.set(JAVA_INT_UNALIGNED, 0, events);
            controlEvent.set(JAVA_LONG_UNALIGNED, DATA_OFFSET, fd);
            return (int) CTL.invokeExact(Libc.errno(), epfd, op, fd, controlEvent);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        } finally {
            controlLock.unlock();
        }
    }

    /**
     * Waits up to {@code timeoutMillis} (0: just look, -1: no limit) and returns how many fds are
     * ready (0 on timeout or a signal); read them with {@link #readyFd} and {@link #readyEvents}.
     */
    public int await(int timeoutMillis) {
        int n;
        try {
            n = (int) WAIT_FAST.invokeExact(epfd, ready.address(), capacity, timeoutMillis);
            if (n < 0) { // a signal, or an error: a look that does not wait, with errno, says which
                n = (int) WAIT.invokeExact(waitCallState, epfd, ready.address(), capacity, 0);
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        return readyOrFailed(n, "epoll_wait");
    }

    /**
     * As {@link #await}, the time-out in nanoseconds (negative: no limit); rounded up to whole
     * milliseconds where the system has no epoll_pwait2.
     */
    public int awaitNanos(long timeoutNanos) {
        if (!nanoWaits) {
            long millis = timeoutNanos < 0 ? -1 : (timeoutNanos + 999_999) / 1_000_000;
            return await((int) Math.min(Integer.MAX_VALUE, millis));
        }
        long timeout = 0;
        if (timeoutNanos >= 0) {
            waitTimeout.set(JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
            waitTimeout.set(JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
            timeout = waitTimeout.address();
        }
        int n;
        try {
            n = (int) WAIT_NANOS_FAST.invokeExact(epfd, ready.address(), capacity, timeout, 0L);
            if (n < 0) { // a signal, or an error (no epoll_pwait2 in this kernel): a look that does not wait, with errno
                waitTimeout.set(JAVA_LONG, 0, 0L);
                waitTimeout.set(JAVA_LONG, 8, 0L);
                n = (int) WAIT_NANOS.invokeExact(waitCallState, epfd, ready.address(), capacity, waitTimeout.address(),
                        0L);
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        if (n < 0 && Libc.errno(waitCallState) == Errno.ENOSYS) {
            nanoWaits = false; // a kernel before 5.11 under a newer glibc
            return awaitNanos(timeoutNanos);
        }
        return readyOrFailed(n, "epoll_pwait2");
    }

    /** A wait's result: how many fds are ready, 0 for a signal; errors other than EINTR throw. */
    private int readyOrFailed(int n, String call) {
        if (n < 0) {
            int errno = Libc.errno(waitCallState);
            if (errno == Errno.EINTR) {
                n = 0;
            } else {
                throw new LinuxCallException("waiting on the epoll set failed", call, errno);
            }
        }
        readyCount = n;
        return n;
    }

    public int readyFd(int i) {
        checkReady(i);
        return (int) ready.get(JAVA_LONG_UNALIGNED, i * EVENT_SIZE + DATA_OFFSET);
    }

    public int readyEvents(int i) {
        checkReady(i);
        return ready.get(JAVA_INT_UNALIGNED, i * EVENT_SIZE);
    }

    private void checkReady(int i) {
        if (i < 0 || i >= readyCount) {
            throw new IndexOutOfBoundsException(i + " of " + readyCount + " ready fds");
        }
    }

    @Override
    public void close() {
        FileDescriptor.close(epfd);
        arena.close();
    }
}
