package dev.verbs4j.unix;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A unix stream socket in the abstract namespace (no file anywhere; scoped to the network
 * namespace, and gone with its last fd): listen, accept and connect with time-outs, small
 * messages that carry fds (SCM_RIGHTS), and the peer's credentials as the kernel saw them at
 * connect (SO_PEERCRED). Non-blocking underneath; each blocking call waits in poll(2).
 */
public final class UnixSocket implements AutoCloseable {
    private static final int AF_UNIX = 1, SOL_SOCKET = SocketCalls.SOL_SOCKET, SO_PEERCRED = 17, SCM_RIGHTS = 1;
    private static final int MSG_NOSIGNAL = SocketCalls.MSG_NOSIGNAL, MSG_CMSG_CLOEXEC = 0x40000000;
    /** sun_path's size; an abstract name is a NUL and then the name's bytes. */
    private static final int SUN_PATH = 108;
    /** struct msghdr and struct cmsghdr on LP64: where their fields sit. */
    private static final int MSGHDR_SIZE = 56, MSG_IOV = 16, MSG_IOVLEN = 24, MSG_CONTROL = 32, MSG_CONTROLLEN = 40;
    private static final int CMSG_HEADER = 16;
    /** The most fds one message carries. */
    public static final int MAX_FDS = 4;

    private static final MethodHandle SENDMSG = Libc.function("sendmsg",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle RECVMSG = Libc.function("recvmsg",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));

    /** What the kernel recorded of the process at the other end when the connection was made. */
    public record PeerCredentials(int pid, int uid, int gid) {}

    /** One message received: its bytes and the fds that came with it (now this process's to close). */
    public record Received(byte[] data, int[] fds) {}

    private final int fd;
    private volatile boolean closed;

    private UnixSocket(int fd) {
        this.fd = fd;
    }

    public int fd() {
        return fd;
    }

    /** Listens on the abstract name {@code name} (EADDRINUSE when another socket has it). */
    public static UnixSocket listenAbstract(String name) {
        UnixSocket s = open();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = abstractAddress(name, arena);
            if ((int) SocketCalls.BIND.invokeExact(Libc.errno(), s.fd, sa, (int) sa.byteSize()) < 0) {
                throw LinuxCallException.last("cannot bind the abstract unix socket @" + name, "bind");
            }
            if ((int) SocketCalls.LISTEN.invokeExact(Libc.errno(), s.fd, 1) < 0) {
                throw LinuxCallException.last("cannot listen on @" + name, "listen");
            }
            return s;
        } catch (Throwable t) {
            s.close();
            throw Libc.rethrow(t);
        }
    }

    /** The next connection, waiting up to {@code timeout}. */
    public UnixSocket accept(Duration timeout) throws SocketTimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            int client = SocketCalls.accept(fd);
            if (client >= 0) {
                return new UnixSocket(client);
            }
            awaitReady(FileDescriptor.POLLIN, deadline, "no connection to the unix socket");
        }
    }

    /** Connects to the abstract name {@code name} (ECONNREFUSED when nobody listens there in this network namespace). */
    public static UnixSocket connectAbstract(String name, Duration timeout) throws SocketTimeoutException {
        UnixSocket s = open();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = abstractAddress(name, arena);
            int rc = (int) SocketCalls.CONNECT.invokeExact(Libc.errno(), s.fd, sa, (int) sa.byteSize());
            if (rc < 0 && Libc.lastErrno() == Errno.EAGAIN) {
                s.awaitReady(FileDescriptor.POLLOUT, System.nanoTime() + timeout.toNanos(), "no connection to @" + name);
            } else if (rc < 0) {
                throw LinuxCallException.last("cannot connect to the abstract unix socket @" + name, "connect");
            }
            return s;
        } catch (SocketTimeoutException e) {
            s.close();
            throw e;
        } catch (Throwable t) {
            s.close();
            throw Libc.rethrow(t);
        }
    }

    /** The process at the other end, as the kernel saw it at connect time. */
    public PeerCredentials peerCredentials() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cred = arena.allocate(12, 4), len = arena.allocate(JAVA_INT);
            len.set(JAVA_INT, 0, 12);
            if ((int) SocketCalls.GETSOCKOPT.invokeExact(Libc.errno(), fd, SOL_SOCKET, SO_PEERCRED, cred, len) < 0) {
                throw LinuxCallException.last("cannot read the peer's credentials", "getsockopt");
            }
            return new PeerCredentials(cred.get(JAVA_INT, 0), cred.get(JAVA_INT, 4), cred.get(JAVA_INT, 8));
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /** Sends {@code data} (at least one byte) with {@code fds} attached, in one message. */
    public void send(byte[] data, int... fds) {
        if (data.length == 0 || fds.length > MAX_FDS) {
            throw new IllegalArgumentException("a message of " + data.length + " bytes with " + fds.length + " fds");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(data.length);
            MemorySegment.copy(data, 0, buffer, JAVA_BYTE, 0, data.length);
            MemorySegment msg = message(arena, buffer, fds.length);
            if (fds.length > 0) {
                MemorySegment control = msg.get(ADDRESS, MSG_CONTROL).reinterpret(controlSpace(fds.length));
                control.set(JAVA_LONG, 0, CMSG_HEADER + 4L * fds.length);
                control.set(JAVA_INT, 8, SOL_SOCKET);
                control.set(JAVA_INT, 12, SCM_RIGHTS);
                for (int i = 0; i < fds.length; i++) {
                    control.set(JAVA_INT, CMSG_HEADER + 4L * i, fds[i]);
                }
            }
            long n = (long) SENDMSG.invokeExact(Libc.errno(), fd, msg, MSG_NOSIGNAL);
            if (n < 0) {
                throw LinuxCallException.last("cannot send on the unix socket", "sendmsg");
            }
            if (n != data.length) {
                throw new LinuxCallException("the unix socket took " + n + " of " + data.length + " bytes", "sendmsg", 0);
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /**
     * Receives one message of at most {@code maxBytes}, with the fds it carries, waiting up to
     * {@code timeout}; an empty array at end of stream.
     */
    public Received receive(int maxBytes, Duration timeout) throws SocketTimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(maxBytes);
            MemorySegment msg = message(arena, buffer, MAX_FDS);
            while (true) {
                long n = (long) RECVMSG.invokeExact(Libc.errno(), fd, msg, MSG_CMSG_CLOEXEC);
                if (n >= 0) {
                    return new Received(buffer.asSlice(0, n).toArray(JAVA_BYTE), receivedFds(msg));
                }
                if (Libc.lastErrno() != Errno.EAGAIN) {
                    throw LinuxCallException.last("cannot receive on the unix socket", "recvmsg");
                }
                awaitReady(FileDescriptor.POLLIN, deadline, "nothing came on the unix socket");
            }
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /**
     * Reads and drops what has arrived, without waiting: what a socket kept only to see its
     * peer go needs. Returns the bytes dropped (0 when none were there), or -1 at the end of
     * the stream or when the connection broke.
     */
    public int discard() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(256);
            MemorySegment msg = message(arena, buffer, MAX_FDS);
            long n = (long) RECVMSG.invokeExact(Libc.errno(), fd, msg, MSG_CMSG_CLOEXEC);
            if (n < 0) {
                return Libc.lastErrno() == Errno.EAGAIN ? 0 : -1;
            }
            for (int received : receivedFds(msg)) {
                FileDescriptor.close(received); // nothing sent after the set-up carries an fd we keep
            }
            return n == 0 ? -1 : (int) n;
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /** Shuts both directions down: the peer sees the end of the stream (its epoll a hang-up). */
    public void shutdown() {
        SocketCalls.shutdownQuietly(fd);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        FileDescriptor.close(fd);
    }

    private static UnixSocket open() {
        return new UnixSocket(SocketCalls.open(AF_UNIX, "a unix socket"));
    }

    private static MemorySegment abstractAddress(String name, Arena arena) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > SUN_PATH - 1) {
            throw new IllegalArgumentException("an abstract socket name of " + bytes.length + " bytes");
        }
        MemorySegment sa = arena.allocate(2 + 1 + bytes.length, 2);
        sa.set(JAVA_SHORT, 0, (short) AF_UNIX);
        MemorySegment.copy(bytes, 0, sa, JAVA_BYTE, 3, bytes.length); // sun_path[0] stays NUL: abstract
        return sa;
    }

    private static long controlSpace(int fds) {
        return CMSG_HEADER + ((4L * fds + 7) & ~7L);
    }

    /** A msghdr with one iovec over {@code buffer} and room for {@code fds} fds of control data. */
    private static MemorySegment message(Arena arena, MemorySegment buffer, int fds) {
        MemorySegment msg = arena.allocate(MSGHDR_SIZE, 8);
        MemorySegment iov = arena.allocate(16, 8);
        iov.set(ADDRESS, 0, buffer);
        iov.set(JAVA_LONG, 8, buffer.byteSize());
        msg.set(ADDRESS, MSG_IOV, iov);
        msg.set(JAVA_LONG, MSG_IOVLEN, 1L);
        if (fds > 0) {
            msg.set(ADDRESS, MSG_CONTROL, arena.allocate(controlSpace(fds), 8));
            msg.set(JAVA_LONG, MSG_CONTROLLEN, controlSpace(fds));
        }
        return msg;
    }

    /** The fds of a received message's SCM_RIGHTS control message, if any. */
    private static int[] receivedFds(MemorySegment msg) {
        long controlLength = msg.get(JAVA_LONG, MSG_CONTROLLEN);
        if (controlLength < CMSG_HEADER) {
            return new int[0];
        }
        MemorySegment control = msg.get(ADDRESS, MSG_CONTROL).reinterpret(controlLength);
        long length = control.get(JAVA_LONG, 0);
        if (control.get(JAVA_INT, 8) != SOL_SOCKET || control.get(JAVA_INT, 12) != SCM_RIGHTS
                || length < CMSG_HEADER || length > controlLength) {
            return new int[0];
        }
        int[] fds = new int[(int) ((length - CMSG_HEADER) / 4)];
        for (int i = 0; i < fds.length; i++) {
            fds[i] = control.get(JAVA_INT, CMSG_HEADER + 4L * i);
        }
        return fds;
    }

    private void awaitReady(short events, long deadline, String what) throws SocketTimeoutException {
        long left = deadline - System.nanoTime();
        if (left <= 0 || FileDescriptor.await(fd, events, -1, Math.max(1, left / 1_000_000)) == 0) {
            throw new SocketTimeoutException(what + " in time");
        }
    }

    @Override
    public String toString() {
        return "UnixSocket[fd " + fd + (closed ? ", closed" : "") + "]";
    }
}
