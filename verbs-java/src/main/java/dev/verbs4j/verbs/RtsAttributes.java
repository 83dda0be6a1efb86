package dev.verbs4j.verbs;

/**
 * Attributes of the RTR → RTS (ready to send) transition. Every type needs the send PSN (what our
 * first packet carries; the peer's receive PSN). RC also takes the ACK timeout, the retry counts
 * and how many reads/atomics we may have outstanding (defaults 14, 7, 7, 1).
 */
public final class RtsAttributes {
    final Integer sqPsn;
    final Integer timeout;
    final Integer retryCount;
    final Integer rnrRetry;
    final Integer maxRdAtomic;

    private RtsAttributes(Builder b) {
        this.sqPsn = b.sqPsn;
        this.timeout = b.timeout;
        this.retryCount = b.retryCount;
        this.rnrRetry = b.rnrRetry;
        this.maxRdAtomic = b.maxRdAtomic;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Just the send PSN, every other field at its default. */
    public static RtsAttributes withSendPsn(int psn) {
        return builder().sqPsn(psn).build();
    }

    public static final class Builder {
        private Integer sqPsn;
        private Integer timeout;
        private Integer retryCount;
        private Integer rnrRetry;
        private Integer maxRdAtomic;

        private Builder() {}

        public Builder sqPsn(int psn) {
            this.sqPsn = AddressVector.range("send PSN", psn, 0, 0xFFFFFF);
            return this;
        }

        /** RC: local ACK timeout code, 4.096 µs * 2^code (0 = wait forever, 14 ≈ 67 ms). */
        public Builder timeout(int code) {
            this.timeout = AddressVector.range("timeout", code, 0, 31);
            return this;
        }

        /** RC: retransmissions after a timeout before the QP fails (0..7). */
        public Builder retryCount(int n) {
            this.retryCount = AddressVector.range("retry count", n, 0, 7);
            return this;
        }

        /** RC: retries after receiver-not-ready NAKs (0..7, 7 = forever). */
        public Builder rnrRetry(int n) {
            this.rnrRetry = AddressVector.range("RNR retry", n, 0, 7);
            return this;
        }

        /** RC: our RDMA reads and atomics that may be outstanding at once. */
        public Builder maxRdAtomic(int n) {
            this.maxRdAtomic = AddressVector.range("max RD atomic", n, 0, 255);
            return this;
        }

        public RtsAttributes build() {
            return new RtsAttributes(this);
        }
    }
}
