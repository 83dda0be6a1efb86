package dev.verbs4j.verbs;

/**
 * Attributes of the INIT → RTR (ready to receive) transition, for {@link QueuePair#toRtr}. RC and UC
 * need the peer: its address, QP number, the PSN its first packet will carry, and the path MTU; RC
 * also the responder resources for incoming reads/atomics and the RNR NAK timer (defaults 1 and
 * 12). UD needs nothing ({@link #datagram()}). Unset fields are reported by {@link QueuePair#toRtr}.
 * Immutable and safe to share; build it with {@link #builder()}.
 */
public final class RtrAttributes {
    final AddressVector remote;
    final PathMtu pathMtu;
    final Integer destQpNumber;
    final Integer rqPsn;
    final Integer maxDestRdAtomic;
    final Integer minRnrTimer;

    private RtrAttributes(Builder b) {
        this.remote = b.remote;
        this.pathMtu = b.pathMtu;
        this.destQpNumber = b.destQpNumber;
        this.rqPsn = b.rqPsn;
        this.maxDestRdAtomic = b.maxDestRdAtomic;
        this.minRnrTimer = b.minRnrTimer;
    }

    /**
     * Starts RTR attributes with nothing set.
     *
     * @return a new builder (not thread-safe)
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The (empty) RTR attributes of a UD QP.
     *
     * @return attributes with nothing set
     */
    public static RtrAttributes datagram() {
        return new Builder().build();
    }

    /**
     * Builds {@link RtrAttributes}; each setter checks its range at once, unset optional fields take
     * their defaults. Not thread-safe.
     */
    public static final class Builder {
        private AddressVector remote;
        private PathMtu pathMtu;
        private Integer destQpNumber;
        private Integer rqPsn;
        private Integer maxDestRdAtomic;
        private Integer minRnrTimer;

        private Builder() {}

        /**
         * Where the peer is (RC/UC).
         *
         * @param remote the peer's address vector; on RoCE it must carry the peer's GID
         * @return this builder
         */
        public Builder remote(AddressVector remote) {
            this.remote = remote;
            return this;
        }

        /**
         * The path MTU (RC/UC): at most the active MTU of both ports.
         *
         * @param mtu the MTU
         * @return this builder
         */
        public Builder pathMtu(PathMtu mtu) {
            this.pathMtu = mtu;
            return this;
        }

        /**
         * The peer QP's number (24 bits).
         *
         * @param qpn 0..0xFFFFFF
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder destQpNumber(int qpn) {
            this.destQpNumber = AddressVector.range("destination QP number", qpn, 0, 0xFFFFFF);
            return this;
        }

        /**
         * The PSN the peer's first packet will carry: the peer's send PSN (24 bits).
         *
         * @param psn 0..0xFFFFFF
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder rqPsn(int psn) {
            this.rqPsn = AddressVector.range("receive PSN", psn, 0, 0xFFFFFF);
            return this;
        }

        /**
         * RC: RDMA reads and atomics from the peer that may be outstanding at once; at most the device's
         * {@code max_qp_rd_atom} (checked at {@link QueuePair#toRtr}).
         *
         * @param n 0..255
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxDestRdAtomic(int n) {
            this.maxDestRdAtomic = AddressVector.range("max destination RD atomic", n, 0, 255);
            return this;
        }

        /**
         * RC: the RNR NAK timer code (0..31, 12 = 0.64 ms) asking the peer to retry later.
         *
         * @param code 0..31
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder minRnrTimer(int code) {
            this.minRnrTimer = AddressVector.range("min RNR timer", code, 0, 31);
            return this;
        }

        /**
         * Builds the attributes from the values set so far; missing ones are reported at
         * {@link QueuePair#toRtr}.
         *
         * @return new immutable attributes
         */
        public RtrAttributes build() {
            return new RtrAttributes(this);
        }
    }
}
