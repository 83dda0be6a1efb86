package dev.verbs4j.guest.transport;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.guest.RemoteRegion;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.linux.Epoll;
import dev.verbs4j.guest.linux.Iovecs;
import dev.verbs4j.guest.linux.NativeSocket;
import dev.verbs4j.guest.loop.CompletionLoop;
import dev.verbs4j.guest.loop.CompletionLoopFd;
import dev.verbs4j.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A channel over a TCP socket of our own ({@link NativeSocket}, framed by {@link TcpFrame}),
 * watched by the completion loop's epoll set. The loop reads frames and serves the peer's
 * one-sided writes and reads against this side's registered regions, with the key and bounds
 * checks of an RDMA device. As on RDMA, an invalid access ends the connection for both sides:
 * the requester's operation fails with REMOTE_ACCESS, and so does the channel.
 *
 * <p>Senders write header and payload with one writev straight from a reusable header and the
 * payload's own memory when nothing is queued ahead of them (no thread hop, no copy, no
 * allocation); what the socket does not take at once is copied to {@link TcpOutbound} and
 * written by the loop, so the caller may reuse its memory either way.
 *
 * <p>The socket is level-triggered in the epoll set: a read pass is bounded (other fds get their
 * turn) and what it leaves is reported again, and OUT is asked for only while bytes are queued.
 */
final class TcpChannel extends ChannelBase implements CompletionLoopFd {
    /**
     * The read buffer holds this many of the largest frames (within the bounds below), so a frame
     * cut by the end of one read usually still fits behind it and need not be moved to the front.
     */
    private static final long FRAMES_PER_READ_BUFFER = 4;
    private static final long MIN_READ_BUFFER = 64 * 1024, MAX_READ_BUFFER = 1024 * 1024;
    private static final int READS_PER_PASS = 16;

    private final NativeSocket socket;
    private final RegionTable regions = new RegionTable();
    private final Object writeLock = new Object();
    private final TcpOutbound outbound = new TcpOutbound();
    private final Map<Long, MemorySegment> readTargets = new ConcurrentHashMap<>();
    // native memory owned by the GC, so nothing can touch freed memory after a close
    private final MemorySegment header = Arena.ofAuto().allocate(TcpFrame.MAX_HEADER, 8);
    private final Iovecs iovecs = new Iovecs(Arena.ofAuto(), 2);
    /** Heap payloads are copied here to be written (writev needs native addresses); under the write lock. */
    private MemorySegment heapCopy = MemorySegment.NULL;
    private boolean writeInterest;
    /** Received bytes: [readAt, writeAt) not yet handled (loop thread only). */
    private MemorySegment in;
    private long readAt;
    private long writeAt;

    private TcpChannel(NativeSocket socket, TransportChoice choice, int maxMessageSize, ChannelConfig config,
                       CompletionLoop loop, boolean ownsLoop) {
        super(choice, maxMessageSize, config, loop, ownsLoop);
        this.socket = socket;
        long largestFrame = TcpFrame.MAX_HEADER + (long) maxMessageSize;
        this.in = Arena.ofAuto().allocate(
                Math.clamp(FRAMES_PER_READ_BUFFER * largestFrame, MIN_READ_BUFFER, MAX_READ_BUFFER), 64);
    }

    /** Takes over a connected socket (after the bootstrap exchange) and starts serving it. */
    static TcpChannel start(NativeSocket socket, TransportChoice choice, int maxMessageSize, ChannelConfig config,
                            CompletionLoop loop, boolean ownsLoop) {
        TcpChannel channel = new TcpChannel(socket, choice, maxMessageSize, config, loop, ownsLoop);
        if (!config.tcpNoDelay()) {
            socket.setNoDelay(false); // the bootstrap ran with it on; from here on, Nagle packs
        }
        loop.watch(socket.fd(), Epoll.IN, channel);
        return channel;
    }

    /** Whether the socket sends each frame at once (TCP_NODELAY), as {@link ChannelConfig#tcpNoDelay} asked. */
    boolean sendsAtOnce() {
        return socket.noDelay();
    }

    @Override
    public RegisteredRegion register(long size) {
        checkOpen();
        return regions.register(size);
    }

    // ---- requests ------------------------------------------------------------------------

    @Override
    void startSend(MemorySegment message, boolean hasImmediate, int immediate, CompletableFuture<Void> done) {
        try {
            synchronized (writeLock) {
                checkWritable();
                int h = TcpFrame.message(header, message.byteSize(), hasImmediate, immediate);
                if (enqueue(h, message, null)) {
                    operations.endUntracked(done, null); // it went at once: nothing to track
                } else {
                    long id = operations.add(done); // under the lock: the mark is where this frame ends
                    outbound.mark(() -> operations.complete(id));
                }
            }
        } catch (ChannelException e) {
            operations.endUntracked(done, e);
        }
        afterWrite();
    }

    @Override
    void startWrite(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                    long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done);
        try {
            synchronized (writeLock) {
                checkWritable();
                enqueue(TcpFrame.write(header, id, remoteAddress, remote.key(), local.byteSize()), local, null);
            }
        } catch (ChannelException e) {
            operations.fail(id, e);
        }
        afterWrite();
    }

    @Override
    void startRead(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                   long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done);
        readTargets.put(id, local);
        try {
            synchronized (writeLock) {
                checkWritable();
                enqueue(TcpFrame.read(header, id, remoteAddress, remote.key(), (int) local.byteSize()),
                        MemorySegment.NULL, null);
            }
        } catch (ChannelException e) {
            readTargets.remove(id);
            operations.fail(id, e);
        }
        afterWrite();
    }

    @Override
    void sayGoodbye() {
        synchronized (writeLock) {
            checkWritable();
            enqueue(TcpFrame.close(header), MemorySegment.NULL, socket::shutdownOutput);
        }
        afterWrite();
    }

    // ---- writing -------------------------------------------------------------------------

    /** A write that failed, to be reported once the write lock is released (ending the channel takes it). */
    private volatile VerbsException writeFailure;

    private void checkWritable() {
        if (!socket.isOpen() || writeFailure != null) {
            throw new ChannelException(ChannelError.PEER_LOST, "the connection is closed");
        }
    }

    /**
     * Under the write lock: writes {@code headerLength} bytes of {@link #header} and then
     * {@code payload} now if nothing is queued ahead, else (or what the socket does not take)
     * queues a copy for the loop. {@code written} runs once the frame is out: here when it went
     * at once, later by the loop otherwise. True when the whole frame went at once.
     */
    private boolean enqueue(int headerLength, MemorySegment payload, Runnable written) {
        long length = payload.byteSize();
        long payloadAddress = length == 0 ? 0 : nativeAddress(payload);
        long sent = 0;
        if (outbound.isEmpty()) {
            try {
                sent = socket.write(iovecs.clear().add(header.address(), headerLength).add(payloadAddress, length));
            } catch (VerbsException e) {
                writeFailure = e;
                throw new ChannelException(ChannelError.PEER_LOST, "writing to the peer failed: " + e.getMessage(), e);
            }
        }
        if (sent == headerLength + length) {
            if (written != null) {
                written.run();
            }
            return true;
        }
        if (sent < headerLength) {
            outbound.add(header.address() + sent, headerLength - sent);
            outbound.add(payloadAddress, length);
        } else {
            outbound.add(payloadAddress + (sent - headerLength), length - (sent - headerLength));
        }
        outbound.mark(written);
        if (!writeInterest) {
            writeInterest = true;
            try {
                loop.changeEvents(socket.fd(), Epoll.IN | Epoll.OUT);
            } catch (VerbsException e) {
                writeFailure = e;
                throw new ChannelException(ChannelError.PEER_LOST, "the connection is closing: " + e.getMessage(), e);
            }
        }
        return false;
    }

    /** Where the payload's bytes are in native memory: its own, or a copy for heap memory. */
    private long nativeAddress(MemorySegment payload) {
        if (payload.isNative()) {
            return payload.address();
        }
        if (heapCopy.byteSize() < payload.byteSize()) {
            heapCopy = Arena.ofAuto().allocate(Math.max(payload.byteSize(), 2 * heapCopy.byteSize()), 64);
        }
        MemorySegment.copy(payload, 0, heapCopy, 0, payload.byteSize());
        return heapCopy.address();
    }

    /** Reports a write failure outside the write lock. */
    private void afterWrite() {
        VerbsException failure = writeFailure;
        if (failure != null && endCause() == null) {
            lost(failure);
        }
    }

    /** Loop thread: writes what is queued while the socket takes it. */
    private void flush() {
        List<Runnable> done = new ArrayList<>(2);
        synchronized (writeLock) {
            if (!socket.isOpen()) {
                return;
            }
            try {
                if (outbound.writeTo(socket, done) && writeInterest) {
                    writeInterest = false;
                    loop.changeEvents(socket.fd(), Epoll.IN);
                }
            } catch (VerbsException e) {
                writeFailure = e;
            }
        }
        afterWrite();
        done.forEach(Runnable::run);
    }

    // ---- reading -------------------------------------------------------------------------

    @Override
    public boolean carriesMessages() {
        return true;
    }

    @Override
    public void onReady(int events) {
        if ((events & (Epoll.OUT | Epoll.ERR | Epoll.HUP)) != 0) {
            flush();
        }
        if (endCause() == null && (events & (Epoll.IN | Epoll.ERR | Epoll.HUP)) != 0) {
            readAvailable();
        }
    }

    private void readAvailable() {
        try {
            for (int i = 0; i < READS_PER_PASS; i++) {
                if (writeAt == in.byteSize()) {
                    compact();
                }
                long n = socket.read(in.address() + writeAt, in.byteSize() - writeAt);
                if (n < 0) {
                    eof();
                    return;
                }
                if (n == 0) {
                    return;
                }
                long room = in.byteSize() - writeAt;
                writeAt += n;
                parseFrames();
                if (endCause() != null || n < room) {
                    return; // a short read emptied the socket: epoll reports what comes next
                }
            }
        } catch (VerbsException e) {
            lost(e);
        }
    }

    /** Handles every whole frame in the buffer; keeps a partial one for the next read. */
    private void parseFrames() {
        while (writeAt - readAt >= TcpFrame.LENGTH_FIELD) {
            int body = in.get(TcpFrame.INT, readAt);
            if (body < 1) {
                lost(new IllegalStateException("corrupt frame length " + body));
                return;
            }
            long frameEnd = readAt + TcpFrame.LENGTH_FIELD + body;
            if (frameEnd > writeAt) {
                if (TcpFrame.LENGTH_FIELD + (long) body > in.byteSize()) {
                    grow(TcpFrame.LENGTH_FIELD + (long) body);
                }
                break;
            }
            long start = readAt + TcpFrame.LENGTH_FIELD;
            readAt = frameEnd;
            handle(start, body);
            if (endCause() != null) {
                return;
            }
        }
        if (readAt == writeAt) {
            readAt = writeAt = 0; // all handled: nothing to move
        } else if (readAt + pendingFrameSize() > in.byteSize()) {
            compact(); // the frame begun here would not fit behind it
        }
    }

    /** The size of the frame begun at readAt, or of its length field while that is not whole. */
    private long pendingFrameSize() {
        return writeAt - readAt < TcpFrame.LENGTH_FIELD ? TcpFrame.LENGTH_FIELD
                : TcpFrame.LENGTH_FIELD + (long) in.get(TcpFrame.INT, readAt);
    }

    private void compact() {
        long left = writeAt - readAt;
        if (readAt > 0 && left > 0) {
            MemorySegment.copy(in, readAt, in, 0, left);
        }
        readAt = 0;
        writeAt = left;
    }

    /** Makes room for a frame larger than the buffer. */
    private void grow(long frameSize) {
        MemorySegment bigger = Arena.ofAuto().allocate(Math.max(frameSize, in.byteSize() * 2), 64);
        long left = writeAt - readAt;
        MemorySegment.copy(in, readAt, bigger, 0, left);
        in = bigger;
        readAt = 0;
        writeAt = left;
    }

    /** One whole frame: its body (type and fields, then payload) is [at, at + length) of the buffer. */
    private void handle(long at, int length) {
        byte type = in.get(ValueLayout.JAVA_BYTE, at);
        switch (type) {
            case TcpFrame.MESSAGE -> {
                boolean hasImmediate = (in.get(ValueLayout.JAVA_BYTE, at + 1) & 1) != 0;
                int immediate = in.get(TcpFrame.INT, at + 2);
                inbox.deliver(this, in, at + 6, length - 6, hasImmediate, immediate);
            }
            case TcpFrame.WRITE -> serveWrite(in.get(TcpFrame.LONG, at + 1), in.get(TcpFrame.LONG, at + 9),
                    in.get(TcpFrame.INT, at + 17), at + 21, length - 21);
            case TcpFrame.READ -> serveRead(in.get(TcpFrame.LONG, at + 1), in.get(TcpFrame.LONG, at + 9),
                    in.get(TcpFrame.INT, at + 17), in.get(TcpFrame.INT, at + 21));
            case TcpFrame.WRITE_DONE -> finish(in.get(TcpFrame.LONG, at + 1), in.get(ValueLayout.JAVA_BYTE, at + 9));
            case TcpFrame.READ_DONE -> {
                long id = in.get(TcpFrame.LONG, at + 1);
                byte status = in.get(ValueLayout.JAVA_BYTE, at + 9);
                MemorySegment target = readTargets.remove(id);
                if (status == TcpFrame.STATUS_OK && target != null) {
                    MemorySegment.copy(in, at + 10, target, 0, Math.min(target.byteSize(), length - 10));
                }
                finish(id, status);
            }
            case TcpFrame.CLOSE -> end(new ChannelException(ChannelError.PEER_CLOSED, "the peer closed the channel"));
            default -> lost(new IllegalStateException("unknown frame type " + type));
        }
    }

    private void serveWrite(long id, long address, int key, long payloadAt, int length) {
        ChannelException refused = null;
        try {
            MemorySegment target = regions.resolve(address, key, length);
            MemorySegment.copy(in, payloadAt, target, 0, length);
        } catch (ChannelException e) {
            refused = refusal(e);
        }
        synchronized (writeLock) {
            byte status = refused == null ? TcpFrame.STATUS_OK : TcpFrame.STATUS_REMOTE_ACCESS;
            respond(TcpFrame.writeDone(header, id, status), MemorySegment.NULL, refused);
        }
        afterWrite();
    }

    private void serveRead(long id, long address, int key, int length) {
        ChannelException refused = null;
        MemorySegment source = MemorySegment.NULL;
        try {
            source = regions.resolve(address, key, length);
        } catch (ChannelException e) {
            refused = refusal(e);
        }
        synchronized (writeLock) {
            byte status = refused == null ? TcpFrame.STATUS_OK : TcpFrame.STATUS_REMOTE_ACCESS;
            respond(TcpFrame.readDone(header, id, status, source.byteSize()), source, refused);
        }
        afterWrite();
    }

    /** An invalid access ends the connection here too, as it moves an RC responder QP to ERR. */
    private static ChannelException refusal(ChannelException why) {
        if (why.error() != ChannelError.REMOTE_ACCESS) {
            throw why;
        }
        return new ChannelException(ChannelError.REMOTE_ACCESS,
                "the peer made an invalid one-sided access: " + why.getMessage());
    }

    /** Under the write lock: sends a response; a refusal ends the channel once it is out (or cannot go). */
    private void respond(int headerLength, MemorySegment payload, ChannelException refused) {
        try {
            checkWritable();
            enqueue(headerLength, payload, refused == null ? null : () -> end(refused));
        } catch (ChannelException e) {
            if (refused != null) {
                end(refused);
            }
        }
    }

    private void finish(long id, byte status) {
        if (status == TcpFrame.STATUS_OK) {
            operations.complete(id);
            return;
        }
        ChannelException e = new ChannelException(ChannelError.REMOTE_ACCESS,
                "the peer refused the access (unknown key or outside its region)");
        operations.fail(id, e);
        end(e);
    }

    private void eof() {
        if (closing) {
            peerDone.complete(null);
            end(new ChannelException(ChannelError.CLOSED, "the channel was closed by this side"));
        } else {
            end(new ChannelException(ChannelError.PEER_LOST, "the peer went away without closing the channel"));
        }
    }

    private void lost(RuntimeException e) {
        if (closing) {
            peerDone.complete(null);
        }
        end(new ChannelException(ChannelError.PEER_LOST, "the connection broke: " + e.getMessage(), e));
    }

    /**
     * A sender whose whole frame went at once completes its operation under the write lock, right
     * after the write. Waiting for that lock before failing what is in flight keeps such a send
     * from failing: on a slow machine the peer can take the frame, answer and close (and this
     * loop read the close) before the sender runs its next line.
     */
    @Override
    void end(ChannelException cause) {
        synchronized (writeLock) {
            // only waits out a sender between its write and its completion
        }
        super.end(cause);
    }

    @Override
    void releaseResources() {
        synchronized (writeLock) { // senders check the socket under this lock before they touch its epoll entry
            if (socket.isOpen()) {
                loop.unwatch(socket.fd());
            }
            outbound.clear();
            socket.close();
        }
        readTargets.clear(); // the regions stay: their owner closes them, and may still read them
    }
}
