package dev.verbs4j.verbs;

import java.util.Objects;

/**
 * What a QP is created with ({@code struct ibv_qp_init_attr}): its type, the CQs its two queues
 * complete into, optionally an SRQ to receive from, and the queue sizes.
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

    /** A QP whose sends and receives both complete into {@code cq}. */
    public static Builder builder(QpType type, CompletionQueue cq) {
        return new Builder(type, cq, cq);
    }

    public static Builder builder(QpType type, CompletionQueue sendCq, CompletionQueue recvCq) {
        return new Builder(type, sendCq, recvCq);
    }

    public QpType type() {
        return type;
    }

    public QpCapabilities capabilities() {
        return capabilities;
    }

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

        /** Receive from this SRQ instead of the QP's own receive queue. */
        public Builder sharedReceiveQueue(SharedReceiveQueue srq) {
            this.srq = srq;
            return this;
        }

        public Builder capabilities(QpCapabilities capabilities) {
            this.capabilities = Objects.requireNonNull(capabilities);
            return this;
        }

        /** Every send completes into the CQ, not only those flagged SIGNALED ({@code sq_sig_all}). */
        public Builder signalAll(boolean signalAll) {
            this.signalAll = signalAll;
            return this;
        }

        public QpInitAttributes build() {
            return new QpInitAttributes(this);
        }
    }
}
