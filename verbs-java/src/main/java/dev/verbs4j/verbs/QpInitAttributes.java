package dev.verbs4j.verbs;

import java.util.Objects;

/**
 * What a QP is created with ({@code struct ibv_qp_init_attr}): its type, the CQs its two queues
 * complete into, optionally an SRQ to receive from, and the queue sizes. Immutable; it references
 * but does not own the CQs and SRQ, which must stay open as long as the QP created from it.
 */
public final class QpInitAttributes {
    final QpType type;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final SharedReceiveQueue srq;
    final QpCapabilities capabilities;
    final boolean signalAll;

    private QpInitAttributes(Builder b) {
        this.type = Objects.requireNonNull(b.type, "QP type");
        this.sendCq = Objects.requireNonNull(b.sendCq, "send CQ");
        this.recvCq = Objects.requireNonNull(b.recvCq, "receive CQ");
        this.srq = b.srq;
        this.capabilities = b.capabilities;
        this.signalAll = b.signalAll;
    }

    /**
     * A QP whose sends and receives both complete into {@code cq}.
     *
     * @param type RC, UC or UD
     * @param cq   the CQ for both queues
     * @return a new builder with {@link QpCapabilities#small()} queues (not thread-safe)
     */
    public static Builder builder(QpType type, CompletionQueue cq) {
        return new Builder(type, cq, cq);
    }

    /**
     * A QP whose sends and receives complete into separate CQs.
     *
     * @param type   RC, UC or UD
     * @param sendCq the CQ for send completions
     * @param recvCq the CQ for receive completions
     * @return a new builder with {@link QpCapabilities#small()} queues (not thread-safe)
     */
    public static Builder builder(QpType type, CompletionQueue sendCq, CompletionQueue recvCq) {
        return new Builder(type, sendCq, recvCq);
    }

    /**
     * The transport type.
     *
     * @return RC, UC or UD
     */
    public QpType type() {
        return type;
    }

    /**
     * The queue sizes asked for; the provider may round up.
     *
     * @return the requested capabilities
     */
    public QpCapabilities capabilities() {
        return capabilities;
    }

    /** Builds {@link QpInitAttributes}. Not thread-safe. */
    public static final class Builder {
        private final QpType type;
        private final CompletionQueue sendCq;
        private final CompletionQueue recvCq;
        private SharedReceiveQueue srq;
        private QpCapabilities capabilities = QpCapabilities.small();
        private boolean signalAll;

        private Builder(QpType type, CompletionQueue sendCq, CompletionQueue recvCq) {
            this.type = type;
            this.sendCq = sendCq;
            this.recvCq = recvCq;
        }

        /**
         * Receive from this SRQ instead of the QP's own receive queue.
         *
         * @param srq an SRQ of the same PD, or null for the QP's own receive queue
         * @return this builder
         */
        public Builder sharedReceiveQueue(SharedReceiveQueue srq) {
            this.srq = srq;
            return this;
        }

        /**
         * The queue sizes to ask for; the default is {@link QpCapabilities#small()}.
         *
         * @param capabilities the sizes
         * @return this builder
         * @throws NullPointerException if {@code capabilities} is null
         */
        public Builder capabilities(QpCapabilities capabilities) {
            this.capabilities = Objects.requireNonNull(capabilities);
            return this;
        }

        /**
         * Every send completes into the CQ, not only those flagged SIGNALED ({@code sq_sig_all}).
         *
         * @param signalAll true to signal every send; false by default
         * @return this builder
         */
        public Builder signalAll(boolean signalAll) {
            this.signalAll = signalAll;
            return this;
        }

        /**
         * Builds the attributes.
         *
         * @return new immutable attributes
         * @throws NullPointerException if the type or a CQ is null
         */
        public QpInitAttributes build() {
            return new QpInitAttributes(this);
        }
    }
}
