package dev.verbs4j.verbs;

/**
 * Queue sizes of a QP ({@code struct ibv_qp_cap}). Asked for at creation; the provider may round
 * up, and {@link QueuePair#capabilities()} reports what it actually allocated.
 *
 * @param maxSendWorkRequests outstanding send-queue work requests
 * @param maxRecvWorkRequests outstanding receive-queue work requests (ignored with an SRQ)
 * @param maxSendSge          scatter/gather entries per send work request
 * @param maxRecvSge          scatter/gather entries per receive work request
 * @param maxInlineData       bytes a send may carry inline (copied at post time, no lkey needed)
 */
public record QpCapabilities(int maxSendWorkRequests, int maxRecvWorkRequests, int maxSendSge, int maxRecvSge,
                             int maxInlineData) {

    /**
     * Checks that every size is non-negative.
     *
     * @throws IllegalArgumentException if a size is negative
     */
    public QpCapabilities {
        requireNonNegative("maxSendWorkRequests", maxSendWorkRequests);
        requireNonNegative("maxRecvWorkRequests", maxRecvWorkRequests);
        requireNonNegative("maxSendSge", maxSendSge);
        requireNonNegative("maxRecvSge", maxRecvSge);
        requireNonNegative("maxInlineData", maxInlineData);
    }

    /**
     * Small queues good for tests and request/response patterns: 16 WRs, 1 SGE, no inline.
     *
     * @return 16 send and 16 receive WRs, 1 SGE each way, no inline data
     */
    public static QpCapabilities small() {
        return new QpCapabilities(16, 16, 1, 1, 0);
    }

    /**
     * A copy asking for inline data; the provider may round up, or refuse (some devices, e.g. PVRDMA,
     * support none).
     *
     * @param bytes the inline data a send may carry, from 0
     * @return a copy with {@code maxInlineData = bytes}
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public QpCapabilities withInlineData(int bytes) {
        return new QpCapabilities(maxSendWorkRequests, maxRecvWorkRequests, maxSendSge, maxRecvSge, bytes);
    }

    /**
     * A copy with other scatter/gather entry counts.
     *
     * @param send SGEs per send work request, from 0
     * @param recv SGEs per receive work request, from 0
     * @return a copy with those counts
     * @throws IllegalArgumentException if a count is negative
     */
    public QpCapabilities withSge(int send, int recv) {
        return new QpCapabilities(maxSendWorkRequests, maxRecvWorkRequests, send, recv, maxInlineData);
    }

    private static void requireNonNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + value);
        }
    }
}
