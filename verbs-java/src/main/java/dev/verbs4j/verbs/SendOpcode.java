package dev.verbs4j.verbs;

/**
 * What a send work request does: enum ibv_wr_opcode. Set with
 * {@link PreparedSend#opcode(int, SendOpcode)}.
 */
public enum SendOpcode {
    /** Write local data to the peer's memory; the peer's CPU sees no completion. */
    RDMA_WRITE(0),
    /** RDMA write that also consumes a receive at the peer, which gets the immediate data. */
    RDMA_WRITE_WITH_IMM(1),
    /** Send a message into the peer's next posted receive. */
    SEND(2),
    /** Send with 32 bits of immediate data delivered in the peer's completion. */
    SEND_WITH_IMM(3),
    /** Read the peer's memory into local memory (RC only). */
    RDMA_READ(4),
    /** 64-bit compare-and-swap on the peer's memory; the old value lands locally (RC only). */
    ATOMIC_CMP_AND_SWP(5),
    /** 64-bit fetch-and-add on the peer's memory; the old value lands locally (RC only). */
    ATOMIC_FETCH_AND_ADD(6);

    private final int value;

    SendOpcode(int value) {
        this.value = value;
    }

    /**
     * The IBV_WR_* value.
     *
     * @return the C enum value
     */
    public int value() {
        return value;
    }

    /**
     * Whether the opcode is a 64-bit atomic (needs device atomic support and an 8-byte aligned target).
     *
     * @return true for the two atomics
     */
    public boolean isAtomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }

    /**
     * Carries a remote address and rkey (RDMA and atomics).
     *
     * @return true for RDMA reads, writes and atomics
     */
    public boolean isRemoteAccess() {
        return this == RDMA_WRITE || this == RDMA_WRITE_WITH_IMM || this == RDMA_READ || isAtomic();
    }

    /**
     * Whether the opcode carries immediate data.
     *
     * @return true for SEND_WITH_IMM and RDMA_WRITE_WITH_IMM
     */
    public boolean hasImmediate() {
        return this == SEND_WITH_IMM || this == RDMA_WRITE_WITH_IMM;
    }

    /**
     * Whether a QP of this type can post the opcode.
     *
     * @param type the QP's transport type
     * @return true on RC for all; on UC for all but reads and atomics; on UD for sends only
     */
    public boolean allowedOn(QpType type) {
        return switch (type) {
            case RC -> true;
            case UC -> this != RDMA_READ && !isAtomic();
            case UD -> this == SEND || this == SEND_WITH_IMM;
        };
    }
}
