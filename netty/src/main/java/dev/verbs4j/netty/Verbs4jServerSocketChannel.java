package dev.verbs4j.netty;

import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.guest.bootstrap.PendingChannel;
import io.netty.channel.AbstractServerChannel;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.socket.ServerSocketChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.UnsupportedAddressTypeException;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Netty server channel that accepts {@link Verbs4jSocketChannel}s: it listens with verbs4j's
 * {@link ChannelServer} and takes each client's connection on an accepting thread of its own,
 * without the bootstrap exchange. The child is read to the pipeline at once; once registered
 * with its event loop it runs the exchange on that loop's completion loop (off the event loop),
 * with its child options, and becomes active. A slow client holds up no other.
 */
public final class Verbs4jServerSocketChannel extends AbstractServerChannel implements ServerSocketChannel {
    private static final Logger LOG = LoggerFactory.getLogger(Verbs4jServerSocketChannel.class);
    /** How long one accept waits before it looks again whether the server still runs. */
    private static final Duration ACCEPT_WAIT = Duration.ofMinutes(10);

    private final Verbs4jServerChannelConfig config = new Verbs4jServerChannelConfig(this);
    private final Handle ioHandle = new Handle();
    private volatile boolean open = true;
    private volatile ChannelServer server;
    private volatile InetSocketAddress local;
    private IoRegistration registration;
    private Thread acceptor;

    /** A server channel, not bound yet. */
    public Verbs4jServerSocketChannel() {
    }

    @Override
    public Verbs4jServerChannelConfig config() {
        return config;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public boolean isActive() {
        return open && server != null;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return null;
    }

    @Override
    protected SocketAddress localAddress0() {
        return local;
    }

    @Override
    protected boolean isCompatible(EventLoop loop) {
        return loop instanceof IoEventLoop ioLoop && ioLoop.isCompatible(Handle.class);
    }

    @Override
    protected void doRegister(ChannelPromise promise) {
        ((IoEventLoop) eventLoop()).register(ioHandle).addListener(f -> {
            if (f.isSuccess()) {
                registration = (IoRegistration) f.getNow();
                promise.setSuccess();
            } else {
                promise.setFailure(f.cause());
            }
        });
    }

    @Override
    protected void doDeregister() {
        IoRegistration r = registration;
        if (r != null) {
            r.cancel();
        }
    }

    @Override
    protected void doBind(SocketAddress localAddress) {
        if (!(localAddress instanceof InetSocketAddress address)) {
            throw new UnsupportedAddressTypeException();
        }
        String host = address.isUnresolved() ? address.getHostString() : address.getAddress().getHostAddress();
        ChannelServer listening = ChannelServer.listen(host, address.getPort(), config.listenConfig());
        local = new InetSocketAddress(address.getAddress(), listening.port());
        server = listening;
    }

    /** Starts accepting at the first read the pipeline asks for (auto-read: at once). */
    @Override
    protected void doBeginRead() {
        if (acceptor == null && server != null) {
            acceptor = Thread.ofPlatform().daemon().name("verbs4j-netty-accept-" + local.getPort())
                    .start(this::acceptClients);
        }
    }

    @Override
    protected void doClose() {
        open = false;
        ChannelServer listening = server;
        if (listening != null) {
            listening.close(); // ends the accepting thread's wait
        }
    }

    private void acceptClients() {
        ChannelServer listening = server;
        while (open) {
            PendingChannel client;
            try {
                client = listening.acceptPending(ACCEPT_WAIT);
            } catch (ChannelException e) {
                if (open) {
                    LOG.debug("accept on port {}: {}", local.getPort(), e.getMessage());
                }
                continue;
            }
            try {
                eventLoop().execute(() -> deliver(client));
            } catch (RejectedExecutionException gone) {
                client.close();
                return;
            }
        }
    }

    /** The client goes down the pipeline as a child, which the acceptor registers. */
    private void deliver(PendingChannel client) {
        if (!open) {
            client.close();
            return;
        }
        ChannelPipeline pipeline = pipeline();
        pipeline.fireChannelRead(new Verbs4jSocketChannel(this, client));
        pipeline.fireChannelReadComplete();
    }

    /** What the event loop holds of this channel. */
    private final class Handle extends Verbs4jIoHandle {
        @Override
        void closeNow() {
            unsafe().close(voidPromise());
        }
    }
}
