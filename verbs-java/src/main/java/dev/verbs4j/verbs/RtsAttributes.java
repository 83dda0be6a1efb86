package dev.verbs4j.verbs;

/**
 * Attributes of the RTR → RTS (ready to send) transition, for {@link QueuePair#toRts}. Every type
 * needs the send PSN (what our first packet carries; the peer's receive PSN). RC also takes the
 * ACK timeout, the retry counts and how many reads/atomics we may have outstanding (defaults 14,
 * 7, 7, 1). Immutable and safe to share; build it with {@link #builder()}.
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

    /**
     * Starts RTS attributes with nothing set.
     *
     * @return a new builder (not thread-safe)
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Just the send PSN, every other field at its default.
     *
     * @param psn the send PSN, 0..0xFFFFFF
     * @return the attributes
     * @throws IllegalArgumentException if out of range
     */
    public static RtsAttributes withSendPsn(int psn) {
        return builder().sqPsn(psn).build();
    }

    /**
     * Builds {@link RtsAttributes}; each setter checks its range at once, unset fields take their
     * defaults. Not thread-safe.
     */
    public static final class Builder {
        private Integer sqPsn;
        private Integer timeout;
        private Integer retryCount;
        private Integer rnrRetry;
        private Integer maxRdAtomic;

        private Builder() {}

        /**
         * The PSN of our first packet; the peer uses it as its receive PSN.
         *
         * @param psn 0..0xFFFFFF
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder sqPsn(int psn) {
            this.sqPsn = AddressVector.range("send PSN", psn, 0, 0xFFFFFF);
            return this;
        }

        /**
         * RC: local ACK timeout code, 4.096 µs * 2^code (0 = wait forever, 14 ≈ 67 ms).
         *
         * @param code 0..31
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder timeout(int code) {
            this.timeout = AddressVector.range("timeout", code, 0, 31);
            return this;
        }

        /**
         * RC: retransmissions after a timeout before the QP fails (0..7). Soft-RoCE (rxe) never
         * counts 7 down: there a peer that stopped answering leaves the requests pending for ever,
         * never RETRY_EXC_ERR; 6 is the largest count that ends.
         *
         * @param n 0..7
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder retryCount(int n) {
            this.retryCount = AddressVector.range("retry count", n, 0, 7);
            return this;
        }

        /**
         * RC: retries after receiver-not-ready NAKs (0..7, 7 = forever).
         *
         * @param n 0..7
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder rnrRetry(int n) {
            this.rnrRetry = AddressVector.range("RNR retry", n, 0, 7);
            return this;
        }

        /**
         * RC: our RDMA reads and atomics that may be outstanding at once; at most the device's
         * {@code max_qp_init_rd_atom} (checked at {@link QueuePair#toRts}).
         *
         * @param n 0..255
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxRdAtomic(int n) {
            this.maxRdAtomic = AddressVector.range("max RD atomic", n, 0, 255);
            return this;
        }

        /**
         * Builds the attributes from the values set so far.
         *
         * @return new immutable attributes
         */
        public RtsAttributes build() {
            return new RtsAttributes(this);
        }
    }
}
