package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.channel.BufferWaiter;
import dev.verbs4j.guest.channel.ChannelBase;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.spi.FdHandler;
import dev.verbs4j.unix.Epoll;
import dev.verbs4j.unix.NativeSocket;
import dev.verbs4j.verbs.RemoteRegion;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A channel over a TCP socket of our own ({@link NativeSocket}, framed by {@link TcpFrame}),
 * watched by the completion loop's epoll set. This class turns the Channel's requests into
 * frames and runs the channel's life cycle; its parts do the rest:
 *
 * <ul>
 * <li>{@link FrameWriter}: frames onto the socket, written at once, queued ({@link TcpOutbound}),
 *     lent by a waiting sender, or batched for the loop ({@link SendStreak});
 * <li>{@link LoopReads}: the loop's reads, and its timed reads of a one-way stream ({@link ReceiveStream});
 * <li>{@link DirectReader}: a thread in {@code receive(ReceiveBuffer, Duration)} reads the socket itself;
 * <li>{@link SocketInterest}: what the loop watches the socket for, and who reads its input;
 * <li>{@link TcpInbound} cuts what is read into frames, {@link ArrivingFrames} routes them, and
 *     {@link OneSidedAccess} serves and completes RDMA-style one-sided writes and reads.
 * </ul>
 *
 * <p>Three locks: the write lock ({@link FrameWriter}) orders frames on the socket, the reading
 * lock ({@link #reading}, here) is held by whoever reads it, and the interest lock
 * ({@link SocketInterest}) guards what the loop watches it for. None is held while waiting for the
 * socket. Their order is in the package's notes (package-info).
 */
public final class TcpChannel extends ChannelBase implements FdHandler {
    /**
     * A thread's longest wait on the socket in one call (a read, or a sender's poll): then it
     * looks at its time-out and interrupt flag again.
     */
    static final long WAIT_SLICE_MICROS = 50_000;

    private final NativeSocket socket;
    /**
     * Held by whoever reads the socket: the loop, or a thread that receives. Guards
     * {@link #inbound} and what it hands over ({@link ArrivingFrames}).
     */
    private final ReentrantLock reading = new ReentrantLock();
    private final SocketInterest interest;
    private final FrameWriter writer;
    private final OneSidedAccess oneSided;
    private final TcpInbound inbound;
    private final LoopReads loopReads;
    private final DirectReader directReader;

    private TcpChannel(NativeSocket socket, TransportChoice choice, int maxMessageSize, ChannelConfig config,
                       CompletionLoop loop, boolean ownsLoop) {
        super(choice, maxMessageSize, config, loop, ownsLoop);
        this.socket = socket;
        this.interest = new SocketInterest(socket, loop, this, reading, this::handleBufferedFrames);
        this.writer = new FrameWriter(socket, interest, this, loop, config, operations, this::readsSoFar);
        this.oneSided = new OneSidedAccess(writer, operations, this);
        ArrivingFrames frames = new ArrivingFrames(this, inbox, oneSided, interest);
        this.inbound = new TcpInbound(maxMessageSize, frames);
        this.loopReads = new LoopReads(socket, inbound, reading, interest, writer, this, loop);
        this.directReader = new DirectReader(socket, inbound, reading, interest, frames, loopReads, inbox, this, loop);
        inbox.onRoomAgain(this::readAgain);
    }

    /** Loop thread: receives made room in the inbox; the frames left in the buffer first, then the socket. */
    private void readAgain() {
        if (interest.releaseInput(false)) {
            tellPeerHolding(false);
        }
        loopReads.handleBufferedFrames();
    }

    /**
     * This end's input is held (or read again): the peer is told, so that its writes stalling on
     * the closed window do not count as a silent peer ({@link #peerHolds}).
     */
    void tellPeerHolding(boolean holding) {
        writer.holding(holding);
        writer.afterWrite();
    }

    /**
     * The peer holds its input (or reads again). TCP_USER_TIMEOUT would end a connection whose
     * window stays closed that long, however promptly the peer answers the window probes, so the
     * peer-loss timeout is lifted while the peer holds: a slow reader is not a lost one.
     */
    void peerHolds(boolean holding) {
        if (holding) {
            socket.clearPeerLossTimeout();
        } else {
            socket.setPeerLossTimeout(config.peerLossTimeout());
        }
    }

    /** Takes over a connected socket (after the bootstrap exchange) and starts serving it. */
    public static TcpChannel start(NativeSocket socket, TransportChoice choice, int maxMessageSize, ChannelConfig config,
                            CompletionLoop loop, boolean ownsLoop) {
        TcpChannel channel = new TcpChannel(socket, choice, maxMessageSize, config, loop, ownsLoop);
        if (!config.tcpNoDelay()) {
            socket.setNoDelay(false); // the bootstrap ran with it on; from here on, Nagle packs
        }
        socket.allowWaitingReads();
        socket.setReceiveTimeout(WAIT_SLICE_MICROS);
        channel.engine.watch(socket.fd(), Epoll.IN, channel);
        return channel;
    }

    /** Whether the socket sends each frame at once (TCP_NODELAY), as {@link ChannelConfig#tcpNoDelay} asked. */
    boolean sendsAtOnce() {
        return socket.noDelay();
    }

    /** TCP segments the socket has sent so far: how the channel packed its frames. */
    long segmentsSent() {
        return socket.segmentsSent();
    }

    /** The socket's fd: where it is watched, for tests that ask the kernel. */
    int socketFd() {
        return socket.fd();
    }

    @Override
    public RegisteredRegion register(long size) {
        checkOpen();
        return oneSided.register(size);
    }

    // ---- requests ------------------------------------------------------------------------

    @Override
    protected void startSend(MemorySegment message, boolean hasImmediate, int immediate, CompletableFuture<Void> done,
                   boolean mayWait) {
        boolean lent = false;
        try {
            lent = writer.message(message, hasImmediate, immediate, done, mayWait);
        } catch (ChannelException e) {
            operations.endUntracked(done, e);
        }
        writer.afterWrite();
        if (lent) {
            writer.awaitLentPayload();
        }
    }

    @Override
    protected void startWrite(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                    long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done);
        try {
            writer.write(id, remoteAddress, remote.rkey(), local);
        } catch (ChannelException e) {
            operations.fail(id, e);
        }
        writer.afterWrite();
    }

    @Override
    protected void startRead(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                   long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done);
        oneSided.expectRead(id, local);
        try {
            writer.read(id, remoteAddress, remote.rkey(), (int) local.byteSize());
        } catch (ChannelException e) {
            oneSided.forgetRead(id);
            operations.fail(id, e);
        }
        writer.afterWrite();
    }

    @Override
    protected void sayGoodbye() {
        writer.goodbye();
        writer.afterWrite();
    }

    // ---- the loop and the receiving threads -------------------------------------------------

    @Override
    public boolean carriesMessages() {
        return true;
    }

    @Override
    public void onReady(int events) {
        if ((events & (Epoll.OUT | Epoll.ERR | Epoll.HUP)) != 0) {
            writer.flushForLoop();
        }
        if ((events & (Epoll.ERR | Epoll.HUP)) != 0) {
            interest.releaseInput(true); // reported whatever the interest: read what the gone peer sent
        }
        if (endCause() == null && (events & (Epoll.IN | Epoll.ERR | Epoll.HUP)) != 0) {
            loopReads.onReadable();
        }
    }

    @Override
    protected void awaitMessage(BufferWaiter waiter, long timeoutNanos) {
        if (!directReader.await(waiter, timeoutNanos)) {
            super.awaitMessage(waiter, timeoutNanos); // it drives the loop
        }
    }

    @Override
    public void setListener(ChannelListener listener) {
        super.setListener(listener);
        interest.watchInput(); // a listener is served by the loop: it reads from now on
        loopReads.handleBufferedLater();
    }

    private void handleBufferedFrames() {
        loopReads.handleBufferedFrames();
    }

    private long readsSoFar() {
        return inbound.reads();
    }

    // ---- the end -----------------------------------------------------------------------------

    /** Ends the channel (from a part: the peer's close, a refused access). */
    void endWith(ChannelException cause) {
        end(cause);
    }

    /** The peer's end of the stream: the answer to our close, or the peer gone. */
    void eof() {
        if (closing) {
            peerDone.complete(null);
            end(new ChannelException(ChannelError.CLOSED, "the channel was closed by this side"));
        } else {
            end(new ChannelException(ChannelError.PEER_LOST, "the peer went away without closing the channel"));
        }
    }

    /** The connection broke (or the peer sent what is no frame). */
    void lost(RuntimeException e) {
        if (closing) {
            peerDone.complete(null);
        }
        end(new ChannelException(ChannelError.PEER_LOST, "the connection broke: " + e.getMessage(), e));
    }

    /** Waits out a sender between its write and its completion first ({@link FrameWriter#awaitSenders}). */
    @Override
    protected void end(ChannelException cause) {
        writer.awaitSenders();
        super.end(cause);
    }

    /**
     * Shuts the socket down first (a thread waiting in its read returns), then closes it unless a
     * receiving thread still reads it: that thread closes it as it leaves.
     */
    @Override
    protected void releaseResources() {
        if (socket.isOpen()) {
            socket.shutdown();
        }
        writer.release(); // under the write and interest locks: no sender, receiving thread or timer touches it after
        closeIfReleased();
        oneSided.clear();
    }

    /** Closes the released socket when nobody reads it (one of releaseResources and the last reader does). */
    void closeIfReleased() {
        if (interest.released() && reading.tryLock()) {
            try {
                socket.close();
            } finally {
                reading.unlock();
            }
        }
    }
}
