package dev.verbs4j.netty;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.PendingChannel;
import dev.verbs4j.loop.CompletionMode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.AbstractChannel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.channel.FileRegion;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.channel.socket.ChannelOutputShutdownException;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.PromiseNotifier;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ConnectionPendingException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.concurrent.TimeUnit;

/**
 * A Netty stream channel over one of verbs4j's channels: shared memory between two processes of
 * one user on one machine, else RDMA (an RC queue pair) when both ends can, else TCP, as
 * {@link Verbs4jChannelOption#TRANSPORT} allows. It runs on a
 * {@link Verbs4jIoHandler}'s event loop, whose thread calls it back. The peer is a channel of
 * this transport ({@link Verbs4jServerSocketChannel}'s children and this class talk to each
 * other only).
 *
 * <p>A socket's semantics: the bytes of every write arrive once and in order as one stream,
 * however they are cut into messages; reads follow auto-read and {@code read()}; writability
 * follows the water marks, and writing waits while the peer's receive window is used up;
 * {@code shutdownOutput} is seen by the peer as input shutdown ({@code ALLOW_HALF_CLOSURE}), and
 * {@code close} sends what was written before it. The set-up (TCP connect, bootstrap exchange,
 * RDMA connect) runs off the event loop, bounded by {@code CONNECT_TIMEOUT_MILLIS}; a refused or
 * failed connect fails with a {@link ConnectException}, a slow one with a
 * {@link ConnectTimeoutException}, and cancelling the connect future closes the channel.
 *
 * <p><b>Size.</b> One job, Netty's channel contract (its {@code Unsafe}: connect, read, write, flush,
 * half-close, close) on one verbs4j channel; the connect failures, the config, the inbound and
 * outbound streams and the I/O handler are their own classes.
 */
public final class Verbs4jSocketChannel extends AbstractChannel implements SocketChannel {
    private static final ChannelMetadata METADATA = new ChannelMetadata(false, 16);

    private enum State { OPEN, CONNECTING, ACTIVE, CLOSED }

    private final Verbs4jChannelConfig config;
    private final Handle ioHandle = new Handle();
    private volatile State state = State.OPEN;
    private volatile InetSocketAddress local, remote;
    private volatile boolean inputShutdown, outputShutdown;
    /** The channel layer's channel has ended: nothing more can be sent. */
    private volatile boolean linkEnded;
    /** The end of the input was seen (FIN or the peer's close), once. */
    private boolean endSeen;
    private volatile Verbs4jIoHandler handler;
    private IoRegistration registration;
    private ChannelStream stream;
    /** A child accepted by the server, before its bootstrap exchange. */
    private PendingChannel pending;
    private ChannelPromise connectPromise;
    private Future<?> connectTimeout;
    /** Writing waits for the peer's credit or a free send slot (or a child's set-up). */
    private boolean writeBlocked;
    /** A read asked for while a child's set-up was still running: asked of the stream once it is. */
    private boolean readBeforeAttach;
    /**
     * A shutdownOutput asked for while flushed writes still wait (for the peer's credit, a send
     * slot or a child's set-up): done once they are written, as a socket's FIN follows its data.
     */
    private ChannelPromise shutdownAfterWrites;

    /** A client channel, not connected yet. */
    public Verbs4jSocketChannel() {
        this(null, null);
    }

    /** A server's child, set up once registered with its event loop. */
    Verbs4jSocketChannel(Verbs4jServerSocketChannel parent, PendingChannel pending) {
        super(parent);
        this.config = new Verbs4jChannelConfig(this);
        this.pending = pending;
        if (pending != null) {
            state = State.CONNECTING;
            local = pending.localAddress();
            remote = pending.remoteAddress();
        }
    }

    /**
     * Which transport carries this channel and why, once it is connected.
     *
     * @return the channel layer's choice, or null before the channel is connected (for a server's
     *     child: before its bootstrap exchange has ended, though it is active from registration)
     */
    public dev.verbs4j.guest.TransportChoice transport() {
        ChannelStream s = stream;
        return s == null ? null : s.link().transport();
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public Verbs4jChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return state != State.CLOSED;
    }

    @Override
    public boolean isActive() {
        // A child is active from its registration, as an accepted NIO socket is: reads and writes
        // asked for during its bootstrap exchange wait for it (doBeginRead, doWrite).
        return state == State.ACTIVE || inSetUp();
    }

    /** A server's child between its registration and the end of its bootstrap exchange. */
    private boolean inSetUp() {
        return state == State.CONNECTING && pending != null;
    }

    @Override
    public Verbs4jServerSocketChannel parent() {
        return (Verbs4jServerSocketChannel) super.parent();
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) super.remoteAddress();
    }

    @Override
    protected SocketAddress localAddress0() {
        return local;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return state == State.ACTIVE || pending != null ? remote : null;
    }

    CompletionMode completionMode() {
        Verbs4jIoHandler h = handler;
        return h == null ? null : h.mode();
    }

    @Override
    protected boolean isCompatible(EventLoop loop) {
        return loop instanceof IoEventLoop ioLoop && ioLoop.isCompatible(Handle.class);
    }

    @Override
    protected AbstractUnsafe newUnsafe() {
        return new StreamUnsafe();
    }

    // ---- registration ------------------------------------------------------------------------

    @Override
    protected void doRegister(ChannelPromise promise) {
        if (handler != null) {
            promise.setFailure(new UnsupportedOperationException(
                    "a verbs4j channel stays on the event loop it was first registered with"));
            return;
        }
        ((IoEventLoop) eventLoop()).register(ioHandle).addListener(f -> {
            if (!f.isSuccess()) {
                promise.setFailure(f.cause());
                return;
            }
            registration = (IoRegistration) f.getNow();
            handler = registration.attachment();
            if (pending != null && state == State.CONNECTING) {
                setUpChild(); // before channelActive, which the promise fires: a close there waits for it
            }
            promise.setSuccess();
        });
    }

    @Override
    protected void doDeregister() {
        IoRegistration r = registration;
        if (r != null) {
            r.cancel();
        }
    }

    /** A child: the bootstrap exchange with the client, on this event loop's completion loop. */
    private void setUpChild() {
        PendingChannel client = pending;
        dev.verbs4j.guest.ChannelConfig setUp = config.channelConfig(handler.loop());
        Blocking.setUp(() -> client.establish(setUp), eventLoop(), link -> {
            if (state != State.CONNECTING) {
                pending = null;
                Blocking.close(link); // closed during the exchange: the client sees an orderly close
                return;
            }
            attach(link); // channelActive was fired at registration
            pending = null;
            if (readBeforeAttach) {
                readBeforeAttach = false;
                stream.inbound.requestRead();
            }
            writable();
        }, failure -> {
            if (state == State.CLOSED) {
                pending = null;
                return;
            }
            pipeline().fireExceptionCaught(ConnectFailures.of(failure, remote));
            unsafe().close(voidPromise()); // still active here: channelInactive follows channelActive
            pending = null;
        });
    }

    /** The channel layer's channel is ours: its stream starts, the channel is active. */
    private void attach(Channel link) {
        local = link.localAddress();
        remote = link.remoteAddress();
        stream = new ChannelStream(this, link, handler, config.receiveWindow());
        state = State.ACTIVE;
        stream.start();
    }

    // ---- what AbstractChannel asks -----------------------------------------------------------

    /**
     * Takes the address asked for as the local address until the channel connects; the
     * connection then has the one its TCP connect got (a verbs4j server channel listens).
     */
    @Override
    protected void doBind(SocketAddress localAddress) {
        if (!(localAddress instanceof InetSocketAddress address)) {
            throw new UnsupportedAddressTypeException();
        }
        local = address;
    }

    @Override
    protected void doDisconnect() {
        doClose();
    }

    @Override
    protected void doClose() {
        state = State.CLOSED;
        cancelConnectTimeout();
        ChannelPromise connecting = connectPromise;
        if (connecting != null) {
            connectPromise = null;
            connecting.tryFailure(new ClosedChannelException());
        }
        if (pending != null && registration == null) {
            pending.close(); // else its exchange has begun: it ends first, so the client sees a close, not a failure
        }
        ChannelPromise shutdown = shutdownAfterWrites;
        if (shutdown != null) {
            shutdownAfterWrites = null;
            shutdown.tryFailure(new ClosedChannelException());
        }
        ChannelStream s = stream;
        if (s != null) {
            s.inbound.release();
            Blocking.close(s.link());
        }
    }

    @Override
    protected void doBeginRead() {
        ChannelStream s = stream;
        if (s != null) {
            s.inbound.requestRead();
        } else if (inSetUp()) {
            readBeforeAttach = true;
        }
    }

    void autoReadCleared() {
        readBeforeAttach = false;
        ChannelStream s = stream;
        if (s != null) {
            s.inbound.cancelRead();
        }
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        ChannelStream s = stream;
        if (inSetUp()) {
            writeBlocked = true; // a child's set-up: the writes wait in the outbound buffer for it
            return;
        }
        if (s == null) {
            throw new NotYetConnectedException();
        }
        if (linkEnded) {
            throw new IOException("the connection has ended: the peer closed it or went away");
        }
        writeBlocked = !s.outbound.write(in);
    }

    @Override
    protected Object filterOutboundMessage(Object msg) throws ChannelOutputShutdownException {
        if (shutdownAfterWrites != null) {
            throw new ChannelOutputShutdownException("shutdownOutput was asked for before this write");
        }
        if (msg instanceof ByteBuf || msg instanceof FileRegion) {
            return msg; // heap or direct alike: the channel layer copies into registered memory
        }
        throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName()
                + " (expected ByteBuf or FileRegion)");
    }

    @Override
    protected void doShutdownOutput() {
        ChannelStream s = stream;
        if (s == null) {
            throw new NotYetConnectedException();
        }
        outputShutdown = true;
        s.finish();
    }

    // ---- DuplexChannel -----------------------------------------------------------------------

    @Override
    public boolean isInputShutdown() {
        return inputShutdown || !isActive();
    }

    @Override
    public boolean isOutputShutdown() {
        return outputShutdown || !isActive();
    }

    @Override
    public boolean isShutdown() {
        return isInputShutdown() && isOutputShutdown();
    }

    @Override
    public ChannelFuture shutdownInput() {
        return shutdownInput(newPromise());
    }

    /** Shuts this side's input: later bytes are thrown away (the peer's window stays open). */
    @Override
    public ChannelFuture shutdownInput(ChannelPromise promise) {
        inEventLoop(() -> {
            if (!isActive()) {
                promise.setFailure(new NotYetConnectedException());
                return;
            }
            inputShutdown = true;
            promise.setSuccess();
        });
        return promise;
    }

    @Override
    public ChannelFuture shutdownOutput() {
        return shutdownOutput(newPromise());
    }

    @Override
    public ChannelFuture shutdownOutput(ChannelPromise promise) {
        inEventLoop(() -> {
            if (writeBlocked || shutdownAfterWrites != null || inSetUp()) {
                deferShutdownOutput(promise); // the writes before it, or a child's set-up, go first
            } else {
                ((AbstractUnsafe) unsafe()).shutdownOutput(promise);
            }
        });
        return promise;
    }

    private void deferShutdownOutput(ChannelPromise promise) {
        ChannelPromise first = shutdownAfterWrites;
        if (first == null) {
            shutdownAfterWrites = promise;
        } else {
            first.addListener(new PromiseNotifier<Void, ChannelFuture>(promise));
        }
    }

    @Override
    public ChannelFuture shutdown() {
        return shutdown(newPromise());
    }

    /** Output, then input; the promise fails with the first failure of the two. */
    @Override
    public ChannelFuture shutdown(ChannelPromise promise) {
        shutdownOutput().addListener(output -> shutdownInput().addListener(input -> {
            Throwable failure = output.cause() != null ? output.cause() : input.cause();
            if (failure == null) {
                promise.setSuccess();
            } else {
                promise.setFailure(failure);
            }
        }));
        return promise;
    }

    private void inEventLoop(Runnable task) {
        if (eventLoop().inEventLoop()) {
            task.run();
        } else {
            eventLoop().execute(task);
        }
    }

    // ---- from the stream (event loop) --------------------------------------------------------

    /** The peer made room, or a send slot came free: writing goes on if it waited. */
    void writable() {
        if (writeBlocked && isActive()) {
            writeBlocked = false;
            ((StreamUnsafe) unsafe()).resumeWrites();
        }
        ChannelPromise shutdown = shutdownAfterWrites;
        if (shutdown != null && !writeBlocked && stream != null && isActive()) {
            shutdownAfterWrites = null;
            ((AbstractUnsafe) unsafe()).shutdownOutput(shutdown);
        }
    }

    /** The input ended (the peer's FIN or close) after every byte before it was read. */
    void inputEnded() {
        if (endSeen) {
            return;
        }
        endSeen = true;
        if (!config.isAllowHalfClosure()) {
            unsafe().close(voidPromise());
            return;
        }
        inputShutdown = true;
        pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        pipeline().fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
    }

    /** The channel layer's channel ended: null after an orderly close, else why it failed. */
    void linkEnded(ChannelException cause) {
        if (state == State.CLOSED) {
            return;
        }
        linkEnded = true;
        if (cause == null) {
            stream.inbound.endOfStream(); // the peer closed: its last bytes are read first
        } else {
            linkFailed(new IOException("the connection failed: " + cause.getMessage(), cause));
        }
    }

    void linkFailed(IOException failure) {
        if (state == State.CLOSED) {
            return;
        }
        pipeline().fireExceptionCaught(failure);
        unsafe().close(voidPromise());
    }

    private void cancelConnectTimeout() {
        Future<?> timeout = connectTimeout;
        if (timeout != null) {
            connectTimeout = null;
            timeout.cancel(false);
        }
    }

    private final class StreamUnsafe extends AbstractUnsafe {
        @Override
        public void connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
            if (promise.isDone() || !ensureOpen(promise)) {
                return;
            }
            if (state == State.ACTIVE) {
                promise.setFailure(new AlreadyConnectedException());
                return;
            }
            if (state == State.CONNECTING) {
                promise.setFailure(new ConnectionPendingException());
                return;
            }
            if (!(remoteAddress instanceof InetSocketAddress target)) {
                promise.setFailure(new UnsupportedAddressTypeException());
                return;
            }
            state = State.CONNECTING;
            connectPromise = promise;
            String host = target.isUnresolved() ? target.getHostString() : target.getAddress().getHostAddress();
            dev.verbs4j.guest.ChannelConfig setUp = config.channelConfig(handler.loop());
            Blocking.setUp(() -> ChannelConnector.connect(host, target.getPort(), setUp), eventLoop(),
                    this::connected, failure -> connectFailed(failure, target));
            int timeoutMillis = config.getConnectTimeoutMillis();
            if (timeoutMillis > 0) {
                connectTimeout = eventLoop().schedule(() -> {
                    ChannelPromise p = connectPromise;
                    if (p != null && p.tryFailure(new ConnectTimeoutException("connection timed out after "
                            + timeoutMillis + " ms: " + target))) {
                        close(voidPromise());
                    }
                }, timeoutMillis, TimeUnit.MILLISECONDS);
            }
            promise.addListener(f -> {
                if (f.isCancelled()) {
                    cancelConnectTimeout();
                    connectPromise = null;
                    close(voidPromise());
                }
            });
        }

        private void connected(Channel link) {
            ChannelPromise p = connectPromise;
            if (p == null || p.isDone() || state != State.CONNECTING) {
                Blocking.close(link); // timed out, cancelled or closed meanwhile
                return;
            }
            connectPromise = null;
            cancelConnectTimeout();
            attach(link);
            boolean taken = p.trySuccess();
            pipeline().fireChannelActive();
            if (!taken) {
                close(voidPromise());
            }
        }

        private void connectFailed(Throwable failure, InetSocketAddress target) {
            ChannelPromise p = connectPromise;
            connectPromise = null;
            cancelConnectTimeout();
            if (p != null) {
                p.tryFailure(ConnectFailures.of(failure, target));
            }
            close(voidPromise());
        }

        @Override
        protected void flush0() {
            if (!writeBlocked) {
                super.flush0(); // else the peer's credit or a free send slot resumes it
            }
        }

        void resumeWrites() {
            super.flush0();
        }
    }

    /** What the event loop holds of this channel. */
    private final class Handle extends Verbs4jIoHandle {
        @Override
        void closeNow() {
            unsafe().close(voidPromise());
        }
    }
}
