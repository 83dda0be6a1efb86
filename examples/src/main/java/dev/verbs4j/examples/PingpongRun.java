package dev.verbs4j.examples;

import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.WcStatus;
import dev.verbs4j.verbs.WorkCompletions;
import java.time.Duration;

/**
 * The traffic loop both pingpong programs share, step for step like the C code: keep
 * {@code rx_depth} receives posted, and post the next send once both the previous send and a
 * receive have completed. Unlike the C code every wait is bounded: no completion within the
 * timeout means the peer is gone, and the run fails instead of hanging.
 */
final class PingpongRun {
    static final long RECV_WRID = 1;
    static final long SEND_WRID = 2;

    /** A completion that was not a success, or no completion in time. */
    static final class Failure extends Exception {
        Failure(String message) {
            super(message);
        }
    }

    private final CompletionQueue cq;
    private final CompletionChannel channel;
    private final PreparedSend send;
    private final PreparedReceive receives;
    private final int rxDepth;
    private final int iters;
    private final Duration timeout;

    private int outstandingReceives;
    private int pending;

    PingpongRun(CompletionQueue cq, CompletionChannel channel, PreparedSend send, PreparedReceive receives,
                int rxDepth, int iters, Duration timeout) {
        this.cq = cq;
        this.channel = channel;
        this.send = send;
        this.receives = receives;
        this.rxDepth = rxDepth;
        this.iters = iters;
        this.timeout = timeout;
    }

    /** Before the exchange: fill the receive queue (and arm the CQ in event mode). */
    void postInitialReceives() {
        receives.post(rxDepth);
        outstandingReceives = rxDepth;
        if (channel != null) {
            cq.requestNotification(false);
        }
    }

    /** The client starts the ping-pong with a send; the server waits for it. */
    void start(boolean client) {
        pending = (int) RECV_WRID;
        if (client) {
            send.post(1);
            pending |= (int) SEND_WRID;
        }
    }

    /** Runs until {@code iters} sends and receives completed; returns the elapsed microseconds. */
    long run() throws Failure {
        long startNanos = System.nanoTime();
        int sent = 0;
        int received = 0;
        try (WorkCompletions wc = new WorkCompletions(2)) {
            long lastProgress = System.nanoTime();
            long timeoutNanos = timeout.toNanos();
            while (received < iters || sent < iters) {
                int n;
                if (channel != null) {
                    if (channel.await(timeout) == null) {
                        throw silence(sent, received);
                    }
                    cq.requestNotification(false);
                    n = cq.poll(wc);
                } else {
                    n = cq.poll(wc);
                    if (n == 0) {
                        if (System.nanoTime() - lastProgress > timeoutNanos) {
                            throw silence(sent, received);
                        }
                        continue;
                    }
                }
                lastProgress = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    if (!wc.isSuccess(i)) {
                        WcStatus status = wc.statusEnum(i);
                        throw new Failure("Failed status " + status + " (" + wc.status(i) + ") for wr_id "
                                + wc.wrId(i) + hint(status));
                    }
                    long id = wc.wrId(i);
                    if (id == SEND_WRID) {
                        sent++;
                    } else if (id == RECV_WRID) {
                        if (--outstandingReceives <= 1) {
                            int refill = rxDepth - outstandingReceives;
                            receives.post(refill);
                            outstandingReceives += refill;
                        }
                        received++;
                    } else {
                        throw new Failure("Completion for unknown wr_id " + id);
                    }
                    pending &= ~(int) id;
                    if (sent < iters && pending == 0) {
                        send.post(1);
                        pending = (int) (RECV_WRID | SEND_WRID);
                    }
                }
            }
        } finally {
            if (channel != null) {
                cq.acknowledgeEvents();
            }
        }
        return (System.nanoTime() - startNanos) / 1000;
    }

    private Failure silence(int sent, int received) {
        return new Failure("no completion for " + timeout.toSeconds() + " s after " + sent + " sends and " + received
                + " receives of " + iters + ": the peer stopped (killed, or wrong GID/QPN/MTU)");
    }

    private static String hint(WcStatus status) {
        return switch (status) {
            case RETRY_EXC_ERR -> ": the peer does not answer (gone, or wrong GID/QP number/MTU)";
            case RNR_RETRY_EXC_ERR -> ": the peer has no receive posted";
            case LOC_LEN_ERR -> ": the message is larger than the receive buffer (different -s on the two sides?)";
            case WR_FLUSH_ERR -> ": the QP went to the error state";
            default -> "";
        };
    }
}
