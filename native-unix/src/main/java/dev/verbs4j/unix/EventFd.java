package dev.verbs4j.unix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A non-blocking eventfd(2): any thread signals it with one 8-byte write, the thread that waits on
 * it (in an epoll set or a poll) drains it with one read. A signal and the close take turns
 * (one monitor): a signal racing the close either lands or does nothing, never writes to a closed
 * (perhaps reused) fd number nor holds the memory the close frees.
 */
public final class EventFd implements AutoCloseable {
    private static final int EFD_NONBLOCK = 0x800, EFD_CLOEXEC = 0x80000;
    private static final MethodHandle EVENTFD = Libc.function("eventfd",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    static final MethodHandle WRITE = Libc.function("write",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    static final MethodHandle READ = Libc.function("read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    /** Signal and drain go without errno, and repeat with it when they fail ({@link Libc#functionWithoutErrno}). */
    private static final MethodHandle WRITE_FAST = Libc.functionWithoutErrno("write",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle READ_FAST = Libc.functionWithoutErrno("read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));

    private final int fd;
    private final Arena arena = Arena.ofShared();
    /** The value every signal writes; read target of the drain (one thread drains). */
    private final MemorySegment one = arena.allocate(JAVA_LONG);
    private final MemorySegment drained = arena.allocate(JAVA_LONG);
    private boolean closed;

    public EventFd() {
        this(create());
    }

    private EventFd(int fd) {
        this.fd = fd;
        one.set(JAVA_LONG, 0, 1L);
    }

    /**
     * Takes over an eventfd this process received (from another process, with SCM_RIGHTS): it
     * is closed with the result.
     */
    public static EventFd adopt(int fd) {
        return new EventFd(fd);
    }

    private static int create() {
        int fd;
        try {
            fd = (int) EVENTFD.invokeExact(Libc.errno(), 0, EFD_NONBLOCK | EFD_CLOEXEC);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        if (fd < 0) {
            throw LinuxCallException.last("cannot create an eventfd", "eventfd");
        }
        return fd;
    }

    public int fd() {
        return fd;
    }

    /** Makes the fd readable (one write; a full counter, EAGAIN, means it is readable already). */
    public synchronized void signal() {
        if (closed) {
            return;
        }
        try {
            long n = (long) WRITE_FAST.invokeExact(fd, one, 8L);
            if (n < 0) {
                n = (long) WRITE.invokeExact(Libc.errno(), fd, one, 8L); // again, to learn why (a second signal is harmless)
            }
            if (n < 0 && Libc.lastErrno() != Errno.EAGAIN) {
                throw LinuxCallException.last("cannot signal eventfd " + fd, "write");
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /** Resets the counter; returns how many signals it had summed (0 when none). */
    public long drain() {
        try {
            long n = (long) READ_FAST.invokeExact(fd, drained, 8L);
            if (n < 0) {
                n = (long) READ.invokeExact(Libc.errno(), fd, drained, 8L); // again, to learn why
            }
            if (n < 0) {
                if (Libc.lastErrno() == Errno.EAGAIN) {
                    return 0;
                }
                throw LinuxCallException.last("cannot read eventfd " + fd, "read");
            }
            return drained.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        FileDescriptor.close(fd);
        arena.close();
    }
}
