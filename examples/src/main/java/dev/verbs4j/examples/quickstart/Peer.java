package dev.verbs4j.examples.quickstart;

import dev.verbs4j.verbs.EndpointExchange;
import dev.verbs4j.verbs.QueuePairEndpoint;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The TCP side channel of the two-process quick-starts: the server waits for the client on a
 * port, both swap their queue-pair endpoints over it, and then use it for one-byte "go" signals
 * (so that, for example, a receive is posted before the peer sends).
 *
 * <p>Command lines: {@code server PORT} or {@code client HOST PORT}.
 */
final class Peer implements AutoCloseable {
    private final Socket socket;

    private Peer(Socket socket) {
        this.socket = socket;
    }

    /** Server with {@code server PORT}, client with {@code client HOST PORT}. */
    static Peer fromArgs(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("server")) {
            try (ServerSocket listener = new ServerSocket(Integer.parseInt(args[1]))) {
                System.out.println("listening on port " + listener.getLocalPort());
                return new Peer(listener.accept());
            }
        }
        if (args.length == 3 && args[0].equals("client")) {
            return new Peer(new Socket(args[1], Integer.parseInt(args[2])));
        }
        throw new IllegalArgumentException("usage: server PORT | client HOST PORT");
    }

    boolean isServer(String[] args) {
        return args[0].equals("server");
    }

    /** Sends ours, returns the peer's. */
    QueuePairEndpoint exchange(QueuePairEndpoint ours) {
        return EndpointExchange.exchange(socket, ours, Completions.TIMEOUT);
    }

    /** Tells the peer it may go on. */
    void signal() throws IOException {
        socket.getOutputStream().write(1);
        socket.getOutputStream().flush();
    }

    /** Waits until the peer says it may go on. */
    void awaitSignal() throws IOException {
        socket.setSoTimeout((int) Completions.TIMEOUT.toMillis());
        if (socket.getInputStream().read() != 1) {
            throw new IOException("the peer closed the connection");
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
