package dev.verbs4j.verbs;

/** enum ibv_wr_opcode: what a send work request does. */
public enum SendOpcode {
    RDMA_WRITE(0), RDMA_WRITE_WITH_IMM(1), SEND(2), SEND_WITH_IMM(3), RDMA_READ(4), ATOMIC_CMP_AND_SWP(5),
    ATOMIC_FETCH_AND_ADD(6);

    private final int value;

    SendOpcode(int value) {
        this.value = value;
    }

    /** The IBV_WR_* value. */
    public int value() {
        return value;
    }

    public boolean isAtomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }

    /** Carries a remote address and rkey (RDMA and atomics). */
    public boolean isRemoteAccess() {
        return this == RDMA_WRITE || this == RDMA_WRITE_WITH_IMM || this == RDMA_READ || isAtomic();
    }

    public boolean hasImmediate() {
        return this == SEND_WITH_IMM || this == RDMA_WRITE_WITH_IMM;
    }

    /** Whether a QP of this type can post the opcode. */
    public boolean allowedOn(QpType type) {
        return switch (type) {
            case RC -> true;
            case UC -> this != RDMA_READ && !isAtomic();
            case UD -> this == SEND || this == SEND_WITH_IMM;
        };
    }
}
