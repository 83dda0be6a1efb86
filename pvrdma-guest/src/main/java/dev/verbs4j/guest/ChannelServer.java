package dev.verbs4j.guest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;

/** The listening side: accepts connections and sets each channel up. */
public final class ChannelServer implements AutoCloseable {
    private final ServerSocketChannel server;
    private final ChannelConfig config;

    private ChannelServer(ServerSocketChannel server, ChannelConfig config) {
        this.server = server;
        this.config = config;
    }

    /** Listens on {@code bindAddress:port} (port 0 picks a free one; see {@link #port()}). */
    public static ChannelServer listen(String bindAddress, int port, ChannelConfig config) {
        try {
            ServerSocketChannel server = ServerSocketChannel.open();
            server.socket().setReuseAddress(true);
            server.bind(new InetSocketAddress(bindAddress, port));
            return new ChannelServer(server, config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + bindAddress + ":" + port, e);
        }
    }

    public int port() {
        return server.socket().getLocalPort();
    }

    /** Waits up to {@code timeout} for a client, then runs the bootstrap exchange with it. */
    public Channel accept(Duration timeout) {
        Socket socket;
        try {
            server.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis())));
            socket = server.socket().accept();
        } catch (SocketTimeoutException e) {
            throw new ChannelException(ChannelError.CONNECT_FAILED, "no client connected within " + timeout, e);
        } catch (IOException e) {
            throw new ChannelException(ChannelError.CONNECT_FAILED, "accept failed: " + e.getMessage(), e);
        }
        return BootstrapExchange.establish(socket.getChannel(), config);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
