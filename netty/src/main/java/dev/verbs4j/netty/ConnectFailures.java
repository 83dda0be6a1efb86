package dev.verbs4j.netty;

import io.netty.channel.ConnectTimeoutException;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;

/**
 * What a failed set-up (TCP connect, bootstrap exchange, RDMA connect) surfaces as in Netty: a
 * {@link ConnectException} naming the peer, a {@link ConnectTimeoutException} when a wait ran out,
 * with the channel layer's failure as the cause.
 */
final class ConnectFailures {
    private ConnectFailures() {}

    static ConnectException of(Throwable failure, SocketAddress remote) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                ConnectTimeoutException e = new ConnectTimeoutException("connection timed out: " + remote);
                e.initCause(failure);
                return e;
            }
        }
        ConnectException e = new ConnectException(failure.getMessage() + ": " + remote);
        e.initCause(failure);
        return e;
    }
}
