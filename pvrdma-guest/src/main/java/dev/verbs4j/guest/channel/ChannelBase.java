package dev.verbs4j.guest.channel;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.verbs.RemoteRegion;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.spi.LoopEngine;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both transports share: argument checks, back-pressure, the inbox, operations in flight,
 * and the life cycle (open → closing → ended, ended exactly once, by whichever comes first: an
 * orderly close by either side, or a failure).
 */
public abstract class ChannelBase implements Channel {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelBase.class);

    protected final TransportChoice choice;
    protected final int maxMessageSize;
    protected final ChannelConfig config;
    protected final CompletionLoop loop;
    /** The loop's side that the transport plugs its fds, queues and timers into. */
    protected final LoopEngine engine;
    protected final ChannelSendCredits credits;
    protected final ChannelInbox inbox;
    protected final ChannelOperations operations;
    /**
     * Completed when the peer has answered our close (or is gone): close() may finish then. A
     * loop future, so close() drives the loop while it waits.
     */
    protected final CompletableFuture<Void> peerDone;
    private final boolean ownsLoop;
    private final AtomicReference<ChannelException> ended = new AtomicReference<>();
    /** {@link #awaitMessage}, made once: a receive allocates nothing. */
    private final ChannelInbox.MessageWait messageWait = this::awaitMessage;
    protected volatile boolean closing;
    /** Why this channel's path refuses immediate data, RDMA WRITE, RDMA READ; null where it carries them. */
    private volatile String noImmediates, noWrites, noReads;
    private volatile InetSocketAddress localAddress, remoteAddress;

    protected ChannelBase(TransportChoice choice, int maxMessageSize, ChannelConfig config, CompletionLoop loop, boolean ownsLoop) {
        this.choice = choice;
        this.maxMessageSize = maxMessageSize;
        this.config = config;
        this.loop = loop;
        this.engine = loop.engine();
        this.ownsLoop = ownsLoop;
        this.inbox = new ChannelInbox(engine, loop, config.receiveBacklog());
        this.credits = new ChannelSendCredits(config.sendQueueDepth(), config.sendTimeout(), engine, loop,
                () -> inbox.sendSpace(this));
        this.operations = new ChannelOperations(config.sendQueueDepth(), credits, engine);
        this.peerDone = engine.newFuture();
    }

    /**
     * Refuses, from now on, what the path cannot carry (null: it can): such a send, write or read
     * throws {@link ChannelError#UNSUPPORTED} with the reason instead of going out altered.
     */
    protected final void refuse(String immediatesWhy, String writesWhy, String readsWhy) {
        this.noImmediates = immediatesWhy;
        this.noWrites = writesWhy;
        this.noReads = readsWhy;
    }

    // ---- what each transport does ----------------------------------------------------------

    /**
     * Starts sending; the credit is taken. Implementations end {@code done} and give the credit
     * back (through {@link #operations} once they registered the operation there), and report
     * failures that way, never by throwing. {@code done} is null for {@link #offer}: nothing to
     * complete, and a failure ends the channel. {@code mayWait}: the caller is in {@link #send},
     * which may wait, so the transport may wait there too rather than copy the message.
     */
    protected abstract void startSend(MemorySegment message, boolean hasImmediate, int immediate, CompletableFuture<Void> done,
                            boolean mayWait);

    protected abstract void startWrite(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                             long remoteAddress, CompletableFuture<Void> done);

    protected abstract void startRead(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                            long remoteAddress, CompletableFuture<Void> done);

    /** Tells the peer this side is closing, after everything it sent. */
    protected abstract void sayGoodbye();

    /** Frees sockets, queues and memory; runs once, on the loop thread when it still runs. */
    protected abstract void releaseResources();

    // ---- Channel -----------------------------------------------------------------------------

    @Override
    public TransportChoice transport() {
        return choice;
    }

    @Override
    public int maxMessageSize() {
        return maxMessageSize;
    }

    @Override
    public CompletableFuture<Void> send(MemorySegment message) {
        return send(message, false, 0, true);
    }

    @Override
    public CompletableFuture<Void> send(MemorySegment message, int immediate) {
        return send(message, true, immediate, true);
    }

    @Override
    public CompletableFuture<Void> trySend(MemorySegment message, boolean hasImmediate, int immediate) {
        return send(message, hasImmediate, immediate, false);
    }

    @Override
    public boolean offer(MemorySegment message, boolean hasImmediate, int immediate) {
        if (!takeSendCredit(message, hasImmediate, false)) {
            credits.wantSpace();
            return false;
        }
        startSend(message, hasImmediate, immediate, null, false);
        return true;
    }

    private CompletableFuture<Void> send(MemorySegment message, boolean hasImmediate, int immediate, boolean wait) {
        if (!takeSendCredit(message, hasImmediate, wait)) {
            credits.wantSpace();
            return null;
        }
        CompletableFuture<Void> done = engine.newFuture();
        startSend(message, hasImmediate, immediate, done, wait);
        return done;
    }

    /** Checks a message to send and takes its credit, waiting for one if {@code wait}; false if none is free. */
    private boolean takeSendCredit(MemorySegment message, boolean hasImmediate, boolean wait) {
        checkOpen();
        RegionBounds.checkMessage(message, maxMessageSize);
        String refused = noImmediates;
        if (hasImmediate && refused != null) {
            throw new ChannelException(ChannelError.UNSUPPORTED, refused);
        }
        if (wait) {
            credits.acquire();
            return true;
        }
        return credits.tryAcquire();
    }

    @Override
    public CompletableFuture<ChannelMessage> receive() {
        return inbox.receive();
    }

    @Override
    public boolean receive(ReceiveBuffer into, Duration timeout) {
        if (into.memory().byteSize() < maxMessageSize) {
            throw new IllegalArgumentException("the receive buffer holds " + into.memory().byteSize()
                    + " bytes, and messages on this channel may have up to " + maxMessageSize
                    + ": give it at least maxMessageSize() bytes");
        }
        return inbox.receive(into, timeout.toNanos(), messageWait);
    }

    /**
     * How a thread in {@link #receive(ReceiveBuffer, Duration)} waits for its message: it drives
     * the loop. A transport may do better (TCP reads its socket itself).
     */
    protected void awaitMessage(BufferWaiter waiter, long timeoutNanos) {
        engine.drive(waiter, timeoutNanos);
    }

    @Override
    public void setListener(ChannelListener listener) {
        inbox.setListener(this, listener);
    }

    @Override
    public CompletableFuture<Void> write(RegisteredRegion local, long localOffset, RemoteRegion remote,
                                         long remoteAddress, int length) {
        checkOneSided(noWrites);
        MemorySegment slice = RegionBounds.localSlice(local, localOffset, length);
        credits.acquire();
        CompletableFuture<Void> done = engine.newFuture();
        startWrite(slice, local, localOffset, remote, remoteAddress, done);
        return done;
    }

    @Override
    public CompletableFuture<Void> read(RegisteredRegion local, long localOffset, RemoteRegion remote,
                                        long remoteAddress, int length) {
        checkOneSided(noReads);
        MemorySegment slice = RegionBounds.localSlice(local, localOffset, length);
        credits.acquire();
        CompletableFuture<Void> done = engine.newFuture();
        startRead(slice, local, localOffset, remote, remoteAddress, done);
        return done;
    }

    private void checkOneSided(String refused) {
        checkOpen();
        if (refused != null) {
            throw new ChannelException(ChannelError.UNSUPPORTED, refused);
        }
    }

    /** The bootstrap connection's two ends, named once the channel is set up (by the bootstrap). */
    public void addresses(InetSocketAddress local, InetSocketAddress remote) {
        this.localAddress = local;
        this.remoteAddress = remote;
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    public boolean isOpen() {
        return ended.get() == null && !closing;
    }

    /** How the channel ended, or null while it is open. */
    public ChannelException endCause() {
        return ended.get();
    }

    @Override
    public void close() {
        if (ended.get() != null) {
            return;
        }
        closing = true;
        Duration timeout = config.closeTimeout();
        boolean mayWait = !loop.inLoop();
        if (mayWait && !credits.awaitIdle(timeout)) {
            LOG.debug("{} send(s) still in flight after {}; closing anyway", credits.inFlight(), timeout);
        }
        try {
            sayGoodbye();
        } catch (RuntimeException e) {
            LOG.debug("telling the peer about the close failed: {}", e.getMessage());
        }
        if (mayWait) {
            try {
                peerDone.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                LOG.debug("the peer did not answer the close within {}", timeout);
            }
        }
        end(new ChannelException(ChannelError.CLOSED, "the channel was closed by this side"));
    }

    protected void checkOpen() {
        ChannelException e = ended.get();
        if (e != null) {
            throw new ChannelException(e.error(), "the channel has ended: " + e.getMessage(), e);
        }
        if (closing) {
            throw new ChannelException(ChannelError.CLOSED, "the channel is closing");
        }
    }

    /**
     * Ends the channel once: fails what is in flight and pending receives with {@code cause},
     * tells the listener, frees the resources (and a private loop).
     */
    protected void end(ChannelException cause) {
        if (!ended.compareAndSet(null, cause)) {
            return;
        }
        peerDone.complete(null);
        if (cause.error() == ChannelError.CLOSED || cause.error() == ChannelError.PEER_CLOSED) {
            LOG.debug("{} channel ended: {}", choice.kind().label(), cause.getMessage());
        } else {
            LOG.info("{} channel failed: {}", choice.kind().label(), cause.getMessage());
        }
        operations.failAll(cause);
        inbox.end(this, cause);
        try {
            engine.runAndWait(this::releaseResources, Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            LOG.warn("releasing the channel's resources failed", e);
        }
        if (ownsLoop) {
            loop.close();
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + choice.describe() + (isOpen() ? "" : ", ended") + "]";
    }
}
