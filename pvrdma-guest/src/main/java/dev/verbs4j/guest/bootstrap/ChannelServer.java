package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.unix.EventFd;
import dev.verbs4j.unix.FileDescriptor;
import dev.verbs4j.unix.NativeSocket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening side: accepts connections and sets each channel up. The listening socket is a
 * native one, like the channels' own sockets; {@link #close()} from another thread ends a
 * waiting {@link #accept} at once (an eventfd in the same poll).
 *
 * <p>Ownership: the caller closes the server; channels it accepted are the caller's and stay open
 * when the server closes. Thread safety: {@link #accept} from one thread at a time;
 * {@link #close()} from any thread.
 */
public final class ChannelServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelServer.class);
    private static final int BACKLOG = 128;

    private final NativeSocket server;
    private final EventFd closed = new EventFd();
    private final ChannelConfig config;
    private volatile boolean closing;

    private ChannelServer(NativeSocket server, ChannelConfig config) {
        this.server = server;
        this.config = config;
    }

    /**
     * Listens on {@code bindAddress:port}. Unless the configuration asks for TCP, it first looks
     * at the RDMA device once, as every accept does again: a client's wait for this side's part of
     * the bootstrap exchange then does not include this JVM's first touch of libibverbs (seconds
     * in a cold JVM on an emulated CPU), and the port opens only once that is done.
     *
     * @param bindAddress the local address to listen on ("0.0.0.0" for all)
     * @param port        the TCP port, or 0 to pick a free one (see {@link #port()})
     * @param config      the configuration of every channel this server accepts
     * @return the listening server, which the caller closes
     * @throws UncheckedIOException when the address cannot be bound
     */
    public static ChannelServer listen(String bindAddress, int port, ChannelConfig config) {
        warmUp(config);
        try {
            return new ChannelServer(NativeSocket.listen(bindAddress, port, BACKLOG), config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + bindAddress + ":" + port, e);
        } catch (RuntimeException e) {
            throw new UncheckedIOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage(),
                    new IOException(e));
        }
    }

    /** The device look of {@link #listen}; what it finds matters only at accept, so a failure is not one here. */
    private static void warmUp(ChannelConfig config) {
        if (config.transport() == TransportPreference.TCP) {
            return;
        }
        try {
            BootstrapExchange.probe(config);
        } catch (ChannelException e) {
            LOG.debug("looking at the RDMA device before listening failed: {}", e.getMessage());
        }
    }

    /**
     * The port this server listens on.
     *
     * @return the TCP port, the one picked when 0 was asked for
     */
    public int port() {
        return server.localPort();
    }

    /**
     * Waits up to {@code timeout} for a client, then runs the bootstrap exchange with it.
     *
     * @param timeout how long to wait for a client to connect
     * @return the connected channel, which the caller owns and closes
     * @throws ChannelException {@link ChannelError#CONNECT_FAILED} when no client came in time,
     *                          the server was closed, or the bootstrap exchange failed
     */
    public Channel accept(Duration timeout) {
        return BootstrapExchange.establish(acceptSocket(timeout), config);
    }

    /**
     * Waits up to {@code timeout} for a client and returns its connection before the bootstrap
     * exchange: for a server that runs each exchange elsewhere (it takes round trips, and the
     * RDMA connect more), with a configuration of its own, such as the completion loop that is
     * to run the channel. The next accept need not wait for it.
     *
     * @param timeout how long to wait for a client to connect
     * @return the client's connection, which the caller sets up or closes
     * @throws ChannelException {@link ChannelError#CONNECT_FAILED} when no client came in time or
     *                          the server was closed
     */
    public PendingChannel acceptPending(Duration timeout) {
        return new PendingChannel(acceptSocket(timeout));
    }

    private NativeSocket acceptSocket(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        NativeSocket socket;
        try {
            while ((socket = closing ? null : server.accept()) == null) {
                if (closing) {
                    throw new ChannelException(ChannelError.CONNECT_FAILED, "the server was closed");
                }
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new ChannelException(ChannelError.CONNECT_FAILED, "no client connected within " + timeout);
                }
                server.await(FileDescriptor.POLLIN, closed.fd(), left);
            }
        } catch (ChannelException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ChannelException(ChannelError.CONNECT_FAILED, "accept failed: " + e.getMessage(), e);
        }
        return socket;
    }

    /** Stops listening and ends a waiting {@link #accept}; idempotent. */
    @Override
    public void close() {
        closing = true;
        closed.signal();
        server.close();
        closed.close();
    }
}
