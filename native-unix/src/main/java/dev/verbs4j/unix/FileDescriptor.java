package dev.verbs4j.unix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/** What every fd needs: close, O_NONBLOCK, and a timed poll(2) on one or two fds. */
public final class FileDescriptor {
    public static final short POLLIN = 0x1, POLLOUT = 0x4, POLLERR = 0x8, POLLHUP = 0x10, POLLRDHUP = 0x2000;
    private static final int F_GETFL = 3, F_SETFL = 4, O_NONBLOCK = 0x800;
    private static final MethodHandle CLOSE = Libc.function("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle FCNTL = Libc.function("fcntl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle POLL = Libc.function("poll",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));

    private FileDescriptor() {}

    public static void close(int fd) {
        try {
            int rc = (int) CLOSE.invokeExact(Libc.errno(), fd);
            if (rc < 0 && Libc.lastErrno() != Errno.EINTR) {
                throw LinuxCallException.last("cannot close fd " + fd, "close");
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /** Sets O_NONBLOCK on {@code fd} (a completion channel's, so the loop can read it dry). */
    public static void setNonBlocking(int fd) {
        try {
            int flags = (int) FCNTL.invokeExact(Libc.errno(), fd, F_GETFL, 0);
            if (flags < 0) {
                throw LinuxCallException.last("cannot read the flags of fd " + fd, "fcntl");
            }
            if ((int) FCNTL.invokeExact(Libc.errno(), fd, F_SETFL, flags | O_NONBLOCK) < 0) {
                throw LinuxCallException.last("cannot make fd " + fd + " non-blocking", "fcntl");
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /**
     * One poll(2) on the {@code count} pollfd entries at {@code fds}, for callers that keep
     * their own (no allocation per call). Returns the number of ready entries, 0 on timeout or
     * when a signal cut the wait short.
     */
    static int poll(MemorySegment fds, long count, int timeoutMillis) {
        try {
            int rc = (int) POLL.invokeExact(Libc.errno(), fds, count, timeoutMillis);
            if (rc < 0) {
                if (Libc.lastErrno() == Errno.EINTR) {
                    return 0;
                }
                throw LinuxCallException.last("cannot poll", "poll");
            }
            return rc;
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /**
     * Waits until {@code fd} has one of {@code events}, or {@code alsoReadable} (an eventfd that
     * cancels the wait; -1 for none) is readable, or {@code timeoutMillis} passes (-1: no limit).
     * Returns the ready events of {@code fd}, 0 on timeout or cancel.
     */
    public static int await(int fd, short events, int alsoReadable, long timeoutMillis) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(16, 8);
            fds.set(JAVA_INT, 0, fd);
            fds.set(JAVA_SHORT, 4, events);
            fds.set(JAVA_INT, 8, alsoReadable);
            fds.set(JAVA_SHORT, 12, POLLIN);
            long deadline = timeoutMillis < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutMillis * 1_000_000;
            while (true) {
                long left = deadline == Long.MAX_VALUE ? -1 : Math.max(0, (deadline - System.nanoTime() + 999_999) / 1_000_000);
                if (poll(fds, alsoReadable < 0 ? 1 : 2, (int) Math.min(Integer.MAX_VALUE, left)) > 0) {
                    return fds.get(JAVA_SHORT, 6);
                }
                if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
                    return 0; // timed out; otherwise a signal cut the wait short: wait again
                }
            }
        }
    }
}
