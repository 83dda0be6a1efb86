package dev.verbs4j.verbs;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * Swaps {@link QueuePairEndpoint}s with a peer over a TCP socket, the way rdma-core's pingpong
 * programs swap their QP numbers: each side writes its endpoint's {@value QueuePairEndpoint#BYTES}
 * bytes, then reads the peer's. Both sides may write first; the bytes fit any socket buffer.
 *
 * <p>Ownership: the socket methods use the socket they are given and leave it open (the caller may
 * keep it, for example to say "done" after the transfer); {@link #accept} and {@link #connect}
 * open and close their own sockets. Stateless and thread-safe.
 */
public final class EndpointExchange {
    private EndpointExchange() {}

    /**
     * Writes {@code local} to {@code socket}, then reads the peer's endpoint.
     *
     * @param socket  a connected socket (left open)
     * @param local   our endpoint
     * @param timeout how long to wait for the peer's bytes
     * @return the peer's endpoint
     * @throws UncheckedIOException     when the socket fails, the peer closes it early or is silent
     *                                  for {@code timeout}
     * @throws IllegalArgumentException when the peer's bytes are not an endpoint of this version
     */
    public static QueuePairEndpoint exchange(Socket socket, QueuePairEndpoint local, Duration timeout) {
        try {
            socket.setSoTimeout(Math.toIntExact(Math.max(1, timeout.toMillis())));
            socket.getOutputStream().write(local.toBytes());
            socket.getOutputStream().flush();
            byte[] peer = new byte[QueuePairEndpoint.BYTES];
            new DataInputStream(socket.getInputStream()).readFully(peer);
            return QueuePairEndpoint.fromBytes(peer);
        } catch (EOFException e) {
            throw new UncheckedIOException("the peer " + socket.getRemoteSocketAddress()
                    + " closed the connection before sending its endpoint", e);
        } catch (SocketTimeoutException e) {
            throw new UncheckedIOException("the peer " + socket.getRemoteSocketAddress() + " sent no endpoint within "
                    + timeout.toMillis() + " ms", e);
        } catch (IOException e) {
            throw new UncheckedIOException("exchanging endpoints with " + socket.getRemoteSocketAddress() + " failed", e);
        }
    }

    /**
     * Server side: waits for one connection on {@code listener}, swaps endpoints, closes that
     * connection.
     *
     * @param listener a bound server socket (left open)
     * @param local    our endpoint
     * @param timeout  how long to wait for the peer to connect, and then for its bytes
     * @return the peer's endpoint
     * @throws UncheckedIOException when no peer connects in time or the exchange fails
     */
    public static QueuePairEndpoint accept(ServerSocket listener, QueuePairEndpoint local, Duration timeout) {
        try {
            listener.setSoTimeout(Math.toIntExact(Math.max(1, timeout.toMillis())));
            try (Socket socket = listener.accept()) {
                return exchange(socket, local, timeout);
            }
        } catch (SocketTimeoutException e) {
            throw new UncheckedIOException("no peer connected to port " + listener.getLocalPort() + " within "
                    + timeout.toMillis() + " ms", e);
        } catch (IOException e) {
            throw new UncheckedIOException("accepting a peer on port " + listener.getLocalPort() + " failed", e);
        }
    }

    /**
     * Client side: connects to {@code host:port}, swaps endpoints, closes the connection.
     *
     * @param host    the server's name or address
     * @param port    its TCP port
     * @param local   our endpoint
     * @param timeout how long to wait for the connection, and then for the server's bytes
     * @return the peer's endpoint
     * @throws UncheckedIOException when the server cannot be reached or the exchange fails
     */
    public static QueuePairEndpoint connect(String host, int port, QueuePairEndpoint local, Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), Math.toIntExact(Math.max(1, timeout.toMillis())));
            return exchange(socket, local, timeout);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach " + host + ":" + port + " to exchange endpoints", e);
        }
    }
}
