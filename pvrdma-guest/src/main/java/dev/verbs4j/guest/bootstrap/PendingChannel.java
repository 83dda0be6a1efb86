package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.unix.NativeSocket;
import java.net.InetSocketAddress;

/**
 * A client's connection that a {@link ChannelServer} accepted, before the bootstrap exchange
 * ({@link ChannelServer#acceptPending}): the server sets it up with {@link #establish} where and
 * when it likes, with the configuration it chooses then, or closes it.
 *
 * <p>Thread safety: establish or close it once, from one thread.
 */
public final class PendingChannel implements AutoCloseable {
    private final NativeSocket socket;
    private final InetSocketAddress localAddress, remoteAddress;
    private boolean taken;

    PendingChannel(NativeSocket socket) {
        this.socket = socket;
        try {
            this.localAddress = socket.localAddress();
            this.remoteAddress = socket.remoteAddress();
        } catch (RuntimeException e) {
            socket.close();
            throw new ChannelException(ChannelError.CONNECT_FAILED, "the client left before it was set up: "
                    + e.getMessage(), e);
        }
    }

    /**
     * This end's address of the connection, as {@link Channel#localAddress()} will have it.
     *
     * @return the local address and port
     */
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    /**
     * The client's address, as {@link Channel#remoteAddress()} will have it.
     *
     * @return the client's address and port
     */
    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    /**
     * Runs the bootstrap exchange with the client, as {@link ChannelServer#accept} does; blocks
     * for it (each wait bounded by {@link ChannelConfig#connectTimeout()}).
     *
     * @param config this side's configuration of the channel (its loop among others)
     * @return the connected channel, which the caller owns and closes
     * @throws ChannelException {@link ChannelError#CONNECT_FAILED} when the exchange fails (the
     *                          connection is closed then), or when it was taken or closed before
     */
    public Channel establish(ChannelConfig config) {
        synchronized (this) {
            if (taken) {
                throw new ChannelException(ChannelError.CONNECT_FAILED, "the connection was set up or closed already");
            }
            taken = true;
        }
        return BootstrapExchange.establish(socket, config);
    }

    /** Closes the connection unless it was set up; idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (taken) {
                return;
            }
            taken = true;
        }
        socket.close();
    }
}
