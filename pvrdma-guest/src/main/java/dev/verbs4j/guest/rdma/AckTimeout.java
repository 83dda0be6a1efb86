package dev.verbs4j.guest.rdma;

import java.time.Duration;

/**
 * The RC local ACK timeout for a peer-loss bound. A requester that hears nothing resends after
 * 4.096 µs * 2^code, and after {@link #RETRIES} resends without an answer the queue pair fails
 * with RETRY_EXC_ERR; the code is the largest whose eight waits fit in the bound, so a silent
 * peer is reported within it while a lost packet waits as little as the bound allows.
 */
final class AckTimeout {
    /** Transport retries (the most an RC queue pair takes). */
    static final int RETRIES = 7;
    private static final double UNIT_NANOS = 4096;
    /** The codes the attribute takes (0 would mean "wait for ever"). */
    private static final int MIN = 1, MAX = 31;

    private AckTimeout() {}

    /** The largest code whose {@code RETRIES + 1} waits fit in {@code peerLoss}; 1 for bounds below them all. */
    static int code(Duration peerLoss) {
        double nanos = peerLoss.toNanos();
        int code = MIN;
        while (code < MAX && (RETRIES + 1) * wait(code + 1) <= nanos) {
            code++;
        }
        return code;
    }

    /** One wait of {@code code}, in nanoseconds. */
    static double wait(int code) {
        return UNIT_NANOS * Math.pow(2, code);
    }
}
