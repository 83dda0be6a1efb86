package dev.verbs4j.guest;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;

/** The client side: connects to a {@link ChannelServer} and sets the channel up. */
public final class ChannelConnector {
    private ChannelConnector() {}

    /** Connects to {@code host:port}; the transport is chosen as {@link BootstrapExchange} describes. */
    public static Channel connect(String host, int port, ChannelConfig config) {
        SocketChannel socket;
        try {
            socket = SocketChannel.open();
        } catch (IOException e) {
            throw new ChannelException(ChannelError.CONNECT_FAILED, "cannot open a socket: " + e.getMessage(), e);
        }
        try {
            socket.socket().connect(new InetSocketAddress(host, port),
                    (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
        } catch (IOException e) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // nothing to add
            }
            throw new ChannelException(ChannelError.CONNECT_FAILED, "cannot connect to " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
        return BootstrapExchange.establish(socket, config);
    }
}
