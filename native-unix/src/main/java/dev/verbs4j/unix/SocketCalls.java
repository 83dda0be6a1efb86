package dev.verbs4j.unix;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/** The socket calls both kinds of socket make ({@link NativeSocket}, {@link UnixSocket}), with errno captured. */
final class SocketCalls {
    static final int SOCK_STREAM = 1, SOCK_NONBLOCK = 0x800, SOCK_CLOEXEC = 0x80000;
    static final int SOL_SOCKET = 1, SHUT_WR = 1, SHUT_RDWR = 2, MSG_NOSIGNAL = 0x4000;

    static final MethodHandle SOCKET = Libc.function("socket",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    static final MethodHandle BIND = Libc.function("bind",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    static final MethodHandle LISTEN = Libc.function("listen",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    static final MethodHandle ACCEPT4 = Libc.function("accept4",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    static final MethodHandle CONNECT = Libc.function("connect",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    static final MethodHandle GETSOCKOPT = Libc.function("getsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle SHUTDOWN = Libc.function("shutdown",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));

    private SocketCalls() {}

    /** A new non-blocking, close-on-exec stream socket of {@code family}; its fd. */
    static int open(int family, String what) {
        int fd;
        try {
            fd = (int) SOCKET.invokeExact(Libc.errno(), family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        if (fd < 0) {
            throw LinuxCallException.last("cannot open " + what, "socket");
        }
        return fd;
    }

    /** The next pending connection on listening socket {@code fd}, or -1 when none waits (EAGAIN). */
    static int accept(int fd) {
        int client;
        try {
            client = (int) ACCEPT4.invokeExact(Libc.errno(), fd, java.lang.foreign.MemorySegment.NULL,
                    java.lang.foreign.MemorySegment.NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        if (client < 0) {
            if (Libc.lastErrno() == Errno.EAGAIN) {
                return -1;
            }
            throw LinuxCallException.last("accept failed", "accept4");
        }
        return client;
    }

    /** shutdown(2) of both directions, failures ignored: the socket is being given up. */
    static void shutdownQuietly(int fd) {
        try {
            int ignored = (int) SHUTDOWN.invokeExact(Libc.errno(), fd, SHUT_RDWR);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }
}
