package dev.verbs4j.guest;

import dev.verbs4j.guest.linux.EventFd;
import dev.verbs4j.guest.linux.FileDescriptor;
import dev.verbs4j.guest.linux.NativeSocket;
import dev.verbs4j.guest.transport.BootstrapExchange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * The listening side: accepts connections and sets each channel up. The listening socket is a
 * native one, like the channels' own sockets; {@link #close()} from another thread ends a
 * waiting {@link #accept} at once (an eventfd in the same poll).
 */
public final class ChannelServer implements AutoCloseable {
    private static final int BACKLOG = 128;

    private final NativeSocket server;
    private final EventFd closed = new EventFd();
    private final ChannelConfig config;
    private volatile boolean closing;

    private ChannelServer(NativeSocket server, ChannelConfig config) {
        this.server = server;
        this.config = config;
    }

    /** Listens on {@code bindAddress:port} (port 0 picks a free one; see {@link #port()}). */
    public static ChannelServer listen(String bindAddress, int port, ChannelConfig config) {
        try {
            return new ChannelServer(NativeSocket.listen(bindAddress, port, BACKLOG), config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + bindAddress + ":" + port, e);
        } catch (RuntimeException e) {
            throw new UncheckedIOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage(),
                    new IOException(e));
        }
    }

    public int port() {
        return server.localPort();
    }

    /** Waits up to {@code timeout} for a client, then runs the bootstrap exchange with it. */
    public Channel accept(Duration timeout) {
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
        return BootstrapExchange.establish(socket, config);
    }

    @Override
    public void close() {
        closing = true;
        closed.signal();
        server.close();
        closed.close();
    }
}
