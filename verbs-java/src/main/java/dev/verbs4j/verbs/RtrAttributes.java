package dev.verbs4j.verbs;

/**
 * Attributes of the INIT → RTR (ready to receive) transition. RC and UC need the peer: its
 * address, QP number, the PSN its first packet will carry, and the path MTU; RC also the
 * responder resources for incoming reads/atomics and the RNR NAK timer (defaults 1 and 12). UD
 * needs nothing ({@link #datagram()}). Unset fields are reported by {@link QueuePair#toRtr}.
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

    public static Builder builder() {
        return new Builder();
    }

    /** The (empty) RTR attributes of a UD QP. */
    public static RtrAttributes datagram() {
        return new Builder().build();
    }

    public static final class Builder {
        private AddressVector remote;
        private PathMtu pathMtu;
        private Integer destQpNumber;
        private Integer rqPsn;
        private Integer maxDestRdAtomic;
        private Integer minRnrTimer;

        private Builder() {}

        public Builder remote(AddressVector remote) {
            this.remote = remote;
            return this;
        }

        public Builder pathMtu(PathMtu mtu) {
            this.pathMtu = mtu;
            return this;
        }

        /** The peer QP's number (24 bits). */
        public Builder destQpNumber(int qpn) {
            this.destQpNumber = AddressVector.range("destination QP number", qpn, 0, 0xFFFFFF);
            return this;
        }

        /** The PSN the peer's first packet will carry: the peer's send PSN (24 bits). */
        public Builder rqPsn(int psn) {
            this.rqPsn = AddressVector.range("receive PSN", psn, 0, 0xFFFFFF);
            return this;
        }

        /** RC: RDMA reads and atomics from the peer that may be outstanding at once. */
        public Builder maxDestRdAtomic(int n) {
            this.maxDestRdAtomic = AddressVector.range("max destination RD atomic", n, 0, 255);
            return this;
        }

        /** RC: the RNR NAK timer code (0..31, 12 = 0.64 ms) asking the peer to retry later. */
        public Builder minRnrTimer(int code) {
            this.minRnrTimer = AddressVector.range("min RNR timer", code, 0, 31);
            return this;
        }

        public RtrAttributes build() {
            return new RtrAttributes(this);
        }
    }
}
