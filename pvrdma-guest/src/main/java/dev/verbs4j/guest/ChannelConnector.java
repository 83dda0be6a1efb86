package dev.verbs4j.guest;

import dev.verbs4j.guest.linux.NativeSocket;
import dev.verbs4j.guest.transport.BootstrapExchange;
import java.io.IOException;

/** The client side: connects to a {@link ChannelServer} and sets the channel up. */
public final class ChannelConnector {
    private ChannelConnector() {}

    /** Connects to {@code host:port}; the transport is chosen as {@link BootstrapExchange} describes. */
    public static Channel connect(String host, int port, ChannelConfig config) {
        NativeSocket socket;
        try {
            socket = NativeSocket.connect(host, port, config.connectTimeout());
        } catch (IOException | RuntimeException e) {
            throw new ChannelException(ChannelError.CONNECT_FAILED, "cannot connect to " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
        return BootstrapExchange.establish(socket, config);
    }
}
