package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;

/** The rdma_cm port space of a {@link CmId} ({@code enum rdma_port_space}): which QPs it connects. */
public enum CmPortSpace {
    /** Reliable connected QPs, addressed like TCP (IP address and port). */
    TCP(Rdma.RDMA_PS_TCP()),
    /** Unreliable datagram QPs, addressed like UDP. */
    UDP(Rdma.RDMA_PS_UDP()),
    /** Any IB service (RC, UC, UD), with native IB addressing. */
    IB(Rdma.RDMA_PS_IB()),
    /** Datagrams for IP over InfiniBand. */
    IPOIB(Rdma.RDMA_PS_IPOIB());

    private final int value;

    CmPortSpace(int value) {
        this.value = value;
    }

    /**
     * The RDMA_PS_* value.
     *
     * @return the C enum value
     */
    public int value() {
        return value;
    }

    /**
     * True for the port spaces whose events carry datagram (UD) rather than connection parameters.
     *
     * @return whether this is UDP or IPOIB
     */
    public boolean isDatagram() {
        return this == UDP || this == IPOIB;
    }

    static CmPortSpace of(int value) {
        for (CmPortSpace ps : values()) {
            if (ps.value == value) {
                return ps;
            }
        }
        throw new IllegalArgumentException("unknown rdma_cm port space 0x" + Integer.toHexString(value));
    }
}
