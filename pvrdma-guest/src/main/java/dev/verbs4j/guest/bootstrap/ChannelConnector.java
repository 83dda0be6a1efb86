package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.unix.NativeSocket;
import java.io.IOException;

/** The client side: connects to a {@link ChannelServer} and sets the channel up. Thread-safe. */
public final class ChannelConnector {
    private ChannelConnector() {}

    /**
     * Connects to {@code host:port} and agrees on the transport with the server: under AUTO shared
     * memory between processes of one user on one kernel in one network namespace, else RDMA when
     * both sides can, else TCP, with the reason in {@link Channel#transport()}; or what a side forces.
     *
     * @param host   the server's host name or address
     * @param port   the server's port
     * @param config this side's configuration
     * @return the connected channel, which the caller owns and closes
     * @throws ChannelException {@link ChannelError#CONNECT_FAILED} when the server cannot be
     *                          reached or the two configurations cannot agree
     */
    public static Channel connect(String host, int port, ChannelConfig config) {
        // probed before connecting: the server's bootstrap wait then starts with our hello ready
        Capabilities local = BootstrapExchange.probe(config);
        NativeSocket socket;
        try {
            socket = NativeSocket.connect(host, port, config.connectTimeout());
        } catch (IOException | RuntimeException e) {
            throw new ChannelException(ChannelError.CONNECT_FAILED, "cannot connect to " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
        return BootstrapExchange.establish(socket, config, local);
    }
}
