package dev.verbs4j.unix;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A TCP socket of our own (socket(2) and friends through FFM), so that a completion loop can
 * wait on it in its epoll set beside the CQ events. Reads and writes never block (each call says
 * MSG_DONTWAIT): they return 0 when the kernel has nothing to give or no room to take; a failed
 * call throws a {@link LinuxCallException} naming the call and its errno. Only a read asked to
 * wait does, on a socket that {@link #allowWaitingReads} made blocking.
 */
public final class NativeSocket implements AutoCloseable {
    private static final int SOL_SOCKET = SocketCalls.SOL_SOCKET, SO_REUSEADDR = 2, SO_ERROR = 4, SO_KEEPALIVE = 9;
    private static final int IPPROTO_TCP = 6, TCP_NODELAY = 1, SHUT_WR = SocketCalls.SHUT_WR;
    private static final int TCP_KEEPIDLE = 4, TCP_KEEPINTVL = 5, TCP_KEEPCNT = 6, TCP_USER_TIMEOUT = 18;
    /** TCP_INFO, and where its struct tcp_info (Linux 4.2 on) keeps tcpi_segs_out, a u32. */
    private static final int TCP_INFO = 11, TCP_INFO_SIZE = 256, TCPI_SEGS_OUT = 136;
    /** SO_RCVTIMEO as x86-64 and arm64 number it, with a struct timeval of two longs. */
    private static final int SO_RCVTIMEO = 20;
    private static final int F_GETFL = 3, F_SETFL = 4, O_NONBLOCK = 0x800;

    private static final MethodHandle SETSOCKOPT = Libc.function("setsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle GETSOCKNAME = Libc.function("getsockname",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GETPEERNAME = Libc.function("getpeername",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle FCNTL = Libc.function("fcntl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2));
    /*
     * The data calls take their pointers as longs (one register either way on LP64): no segment
     * to make and check per call, which costs most where the JIT inlines least (C1).
     */
    private static final MethodHandle SENDMSG = Libc.function("sendmsg",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT));
    private static final MethodHandle RECVMSG = Libc.function("recvmsg",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT));
    private static final MethodHandle SEND = Libc.function("send",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    private static final MethodHandle RECV = Libc.function("recv",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    /** MSG_NOSIGNAL: a write to a reset connection fails with EPIPE instead of raising SIGPIPE. */
    private static final int MSG_DONTWAIT = 0x40, MSG_NOSIGNAL = 0x4000;

    private final int fd;
    private volatile boolean closed;
    /** struct pollfd {fd, POLLOUT} for {@link #awaitWritable}; GC-owned, as a late waiter may still pass it. */
    private final MemorySegment writablePoll = Arena.ofAuto().allocate(8, 4);

    private NativeSocket(int fd) {
        this.fd = fd;
        writablePoll.set(JAVA_INT, 0, fd);
        writablePoll.set(JAVA_SHORT, 4, FileDescriptor.POLLOUT);
    }

    public int fd() {
        return fd;
    }

    public boolean isOpen() {
        return !closed;
    }

    /** A listening socket on {@code bindAddress:port} (SO_REUSEADDR; port 0 picks one). */
    public static NativeSocket listen(String bindAddress, int port, int backlog) throws IOException {
        InetAddress address = InetAddress.getByName(bindAddress);
        NativeSocket s = open(SocketAddresses.family(address));
        try (Arena arena = Arena.ofConfined()) {
            s.setOption(SOL_SOCKET, SO_REUSEADDR, 1);
            MemorySegment sa = SocketAddresses.of(address, port, arena);
            if ((int) SocketCalls.BIND.invokeExact(Libc.errno(), s.fd, sa, (int) sa.byteSize()) < 0) {
                throw LinuxCallException.last("cannot bind to " + bindAddress + ":" + port, "bind");
            }
            if ((int) SocketCalls.LISTEN.invokeExact(Libc.errno(), s.fd, backlog) < 0) {
                throw LinuxCallException.last("cannot listen on " + bindAddress + ":" + port, "listen");
            }
            return s;
        } catch (Throwable t) {
            s.close();
            throw rethrowIo(t);
        }
    }

    /** The next pending connection (non-blocking), or null when none is waiting. */
    public NativeSocket accept() {
        int client = SocketCalls.accept(fd);
        return client < 0 ? null : new NativeSocket(client);
    }

    /** Connects to {@code host:port} within {@code timeout}: non-blocking connect, then SO_ERROR. */
    public static NativeSocket connect(String host, int port, Duration timeout) throws IOException {
        InetAddress address = InetAddress.getByName(host);
        NativeSocket s = open(SocketAddresses.family(address));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = SocketAddresses.of(address, port, arena);
            int rc = (int) SocketCalls.CONNECT.invokeExact(Libc.errno(), s.fd, sa, (int) sa.byteSize());
            if (rc < 0 && Libc.lastErrno() != Errno.EINPROGRESS) {
                throw LinuxCallException.last("cannot connect to " + host + ":" + port, "connect");
            }
            if (rc < 0) {
                if (s.await(FileDescriptor.POLLOUT, -1, timeout.toMillis()) == 0) {
                    throw new SocketTimeoutException("no connection to " + host + ":" + port + " within " + timeout);
                }
                int error = s.getOption(SOL_SOCKET, SO_ERROR);
                if (error != 0) {
                    throw new LinuxCallException("cannot connect to " + host + ":" + port, "connect", error);
                }
            }
            return s;
        } catch (Throwable t) {
            s.close();
            throw rethrowIo(t);
        }
    }

    private static NativeSocket open(int family) {
        return new NativeSocket(SocketCalls.open(family, "a socket"));
    }

    /** TCP_NODELAY and SO_KEEPALIVE: small frames go out at once, a vanished peer is noticed. */
    public void setNoDelayAndKeepAlive() {
        setOption(IPPROTO_TCP, TCP_NODELAY, 1);
        setOption(SOL_SOCKET, SO_KEEPALIVE, 1);
    }

    /**
     * How long a silent peer is waited for before the connection fails with ETIMEDOUT, whether
     * data is in flight or not: data unacknowledged for that long ends it (TCP_USER_TIMEOUT), and
     * an idle connection is probed from half of that on, every tenth (keep-alive, whole seconds,
     * at least one), until the same time has passed without an answer. A peer whose
     * link, host or kernel is gone is then noticed within about {@code timeout} (plus one probe
     * interval); a live kernel answers the probes, so a stopped process is not lost.
     *
     * @param timeout the time without any answer from the peer, at least a millisecond
     */
    public void setPeerLossTimeout(Duration timeout) {
        int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        int idle = Math.max(1, millis / 2000);
        int interval = Math.max(1, millis / 10_000);
        setOption(SOL_SOCKET, SO_KEEPALIVE, 1);
        setOption(IPPROTO_TCP, TCP_KEEPIDLE, idle);
        setOption(IPPROTO_TCP, TCP_KEEPINTVL, interval);
        // TCP_USER_TIMEOUT decides when probing gives up; the count only keeps probing until then
        setOption(IPPROTO_TCP, TCP_KEEPCNT, Math.min(127, millis / 1000 / interval + 1));
        setOption(IPPROTO_TCP, TCP_USER_TIMEOUT, millis);
    }

    /**
     * Lifts the bound on unacknowledged data that {@link #setPeerLossTimeout} set (TCP_USER_TIMEOUT
     * 0: the kernel's retransmission limits again), as while the peer holds its window closed on
     * purpose; the keep-alive probes stay.
     */
    public void clearPeerLossTimeout() {
        setOption(IPPROTO_TCP, TCP_USER_TIMEOUT, 0);
    }

    /** The TCP_USER_TIMEOUT in force, in milliseconds (0: the kernel's retransmission limits). */
    public int peerLossTimeoutMillis() {
        return getOption(IPPROTO_TCP, TCP_USER_TIMEOUT);
    }

    /** TCP_NODELAY on (each write goes out at once) or off (Nagle packs small writes). */
    public void setNoDelay(boolean noDelay) {
        setOption(IPPROTO_TCP, TCP_NODELAY, noDelay ? 1 : 0);
    }

    /** Whether TCP_NODELAY is on. */
    public boolean noDelay() {
        return getOption(IPPROTO_TCP, TCP_NODELAY) != 0;
    }

    /**
     * TCP segments this socket has sent so far (TCP_INFO's tcpi_segs_out, retransmissions and
     * pure acknowledgements included): how its writes were packed on the wire.
     */
    public long segmentsSent() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = arena.allocate(TCP_INFO_SIZE, 8);
            if (readOption(arena, IPPROTO_TCP, TCP_INFO, info) < TCPI_SEGS_OUT + 4) {
                throw new UnsupportedOperationException("this kernel's TCP_INFO has no segment count (Linux 4.2 on)");
            }
            return Integer.toUnsignedLong(info.get(JAVA_INT, TCPI_SEGS_OUT));
        }
    }

    public int localPort() {
        return localAddress().getPort();
    }

    /** This end's address and port (getsockname). */
    public InetSocketAddress localAddress() {
        return address(GETSOCKNAME, "getsockname");
    }

    /** The peer's address and port (getpeername); the socket must be connected. */
    public InetSocketAddress remoteAddress() {
        return address(GETPEERNAME, "getpeername");
    }

    private InetSocketAddress address(MethodHandle call, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = arena.allocate(SocketAddresses.MAX_SIZE, 4);
            MemorySegment len = arena.allocate(JAVA_INT);
            len.set(JAVA_INT, 0, (int) SocketAddresses.MAX_SIZE);
            if ((int) call.invokeExact(Libc.errno(), fd, sa, len) < 0) {
                throw LinuxCallException.last("cannot read the socket's address", name);
            }
            return SocketAddresses.toJava(sa);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /** Reads into native memory; the count, 0 when nothing is there yet, -1 at end of stream. */
    public long read(long address, long length) {
        return read(address, length, false);
    }

    /**
     * As {@link #read(long, long)}; with {@code wait}, it waits for bytes when none are there: up
     * to the receive time-out ({@link #setReceiveTimeout}) on a socket that
     * {@link #allowWaitingReads} made blocking, and until {@link #shutdown} from another thread
     * (0 when the time ran out or a signal came).
     */
    public long read(long address, long length, boolean wait) {
        MemorySegment state = Libc.errno();
        long n;
        try {
            n = (long) RECV.invokeExact(state, fd, address, length, wait ? 0 : MSG_DONTWAIT);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        return checkRead(n, "recv", state);
    }

    /** Reads into the listed buffers, in order, with one call; as {@link #read(long, long, boolean)}. */
    public long read(Iovecs buffers, boolean wait) {
        long n;
        try {
            n = (long) RECVMSG.invokeExact(buffers.callState(), fd, buffers.messageAddress(), wait ? 0 : MSG_DONTWAIT);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        return checkRead(n, "recvmsg", buffers.callState());
    }

    /** Writes from native memory; how much the kernel took (0 when it has no room now). */
    public long write(long address, long length) {
        MemorySegment state = Libc.errno();
        long n;
        try {
            n = (long) SEND.invokeExact(state, fd, address, length, MSG_NOSIGNAL | MSG_DONTWAIT);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        return checkWritten(n, "send", state);
    }

    /** Writes the listed buffers with one call; how much the kernel took (0 when it has no room now). */
    public long write(Iovecs buffers) {
        if (buffers.count() == 0) {
            return 0;
        }
        long n;
        try {
            n = (long) SENDMSG.invokeExact(buffers.callState(), fd, buffers.messageAddress(),
                    MSG_NOSIGNAL | MSG_DONTWAIT);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        return checkWritten(n, "sendmsg", buffers.callState());
    }

    /**
     * A read's result as callers see it: the count, 0 for nothing yet, -1 at end of stream.
     * {@code state}: where the call captured errno.
     */
    private static long checkRead(long n, String call, MemorySegment state) {
        if (n > 0) {
            return n;
        }
        if (n == 0) {
            return -1;
        }
        int errno = Libc.errno(state);
        if (errno == Errno.EAGAIN || errno == Errno.EINTR) {
            return 0;
        }
        throw new LinuxCallException("reading from the peer failed", call, errno);
    }

    private static long checkWritten(long n, String call, MemorySegment state) {
        if (n >= 0) {
            return n;
        }
        int errno = Libc.errno(state);
        if (errno == Errno.EAGAIN || errno == Errno.EINTR) {
            return 0;
        }
        throw new LinuxCallException("writing to the peer failed", call, errno);
    }

    /**
     * Waits up to {@code timeoutMillis} until the socket takes bytes again, or has failed (a
     * write then says why). For one thread at a time: the pollfd is kept, so nothing is allocated.
     */
    public void awaitWritable(int timeoutMillis) {
        FileDescriptor.poll(writablePoll, 1, timeoutMillis);
    }

    /**
     * Whether the peer has closed its side or the connection broke (POLLRDHUP, POLLHUP, POLLERR),
     * seen without reading: bytes still to be read stay where they are. Does not wait.
     */
    public boolean peerHungUp() {
        return (await(FileDescriptor.POLLRDHUP, -1, 0)
                & (FileDescriptor.POLLRDHUP | FileDescriptor.POLLHUP | FileDescriptor.POLLERR)) != 0;
    }

    /** Waits for {@code events} as {@link FileDescriptor#await}. */
    public int await(short events, int cancelFd, long timeoutMillis) {
        return FileDescriptor.await(fd, events, cancelFd, timeoutMillis);
    }

    /**
     * Lets a read asked to wait do so (clears O_NONBLOCK). Every other call here still never
     * blocks: each says MSG_DONTWAIT.
     */
    public void allowWaitingReads() {
        try {
            int flags = (int) FCNTL.invokeExact(Libc.errno(), fd, F_GETFL, 0);
            if (flags < 0 || (int) FCNTL.invokeExact(Libc.errno(), fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
                throw LinuxCallException.last("cannot make the socket blocking", "fcntl");
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /** How long a read asked to wait waits at most (SO_RCVTIMEO; at least a microsecond, as 0 means forever). */
    public void setReceiveTimeout(long micros) {
        long us = Math.max(1, micros);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment timeval = arena.allocate(16, 8);
            timeval.set(JAVA_LONG, 0, us / 1_000_000);
            timeval.set(JAVA_LONG, 8, us % 1_000_000);
            if ((int) SETSOCKOPT.invokeExact(Libc.errno(), fd, SOL_SOCKET, SO_RCVTIMEO, timeval, 16) < 0) {
                throw LinuxCallException.last("cannot set the socket's receive time-out", "setsockopt");
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /**
     * Shuts both directions down: a thread waiting in a read returns at once (closing the
     * fd would not wake it). Failures are ignored: the socket is being given up.
     */
    public void shutdown() {
        SocketCalls.shutdownQuietly(fd);
    }

    /** Sends FIN after what is queued; reads go on. */
    public void shutdownOutput() {
        try {
            if ((int) SocketCalls.SHUTDOWN.invokeExact(Libc.errno(), fd, SHUT_WR) < 0) {
                throw LinuxCallException.last("cannot shut the socket's output down", "shutdown");
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        FileDescriptor.close(fd);
    }

    private void setOption(int level, int name, int value) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(JAVA_INT);
            v.set(JAVA_INT, 0, value);
            if ((int) SETSOCKOPT.invokeExact(Libc.errno(), fd, level, name, v, 4) < 0) {
                throw LinuxCallException.last("cannot set socket option " + level + "/" + name, "setsockopt");
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    private int getOption(int level, int name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(JAVA_INT);
            readOption(arena, level, name, v);
            return v.get(JAVA_INT, 0);
        }
    }

    /** getsockopt into {@code value} (its whole size offered); the bytes the kernel filled. */
    private int readOption(Arena arena, int level, int name, MemorySegment value) {
        MemorySegment len = arena.allocate(JAVA_INT);
        len.set(JAVA_INT, 0, (int) value.byteSize());
        try {
            if ((int) SocketCalls.GETSOCKOPT.invokeExact(Libc.errno(), fd, level, name, value, len) < 0) {
                throw LinuxCallException.last("cannot read socket option " + level + "/" + name, "getsockopt");
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        return len.get(JAVA_INT, 0);
    }

    private static IOException rethrowIo(Throwable t) {
        if (t instanceof IOException io) {
            return io;
        }
        throw Libc.rethrow(t);
    }

    @Override
    public String toString() {
        return "NativeSocket[fd " + fd + (closed ? ", closed" : "") + "]";
    }
}
