package dev.verbs4j.verbs;

/**
 * What a completion completed: enum ibv_wc_opcode. {@link WorkCompletions#opcodeEnum(int)} gives
 * it; valid only for successful completions.
 */
public enum WcOpcode {
    /** A send (with or without immediate) completed on the send queue. */
    SEND(0),
    /** An RDMA write (with or without immediate) completed on the send queue. */
    RDMA_WRITE(1),
    /** An RDMA read completed: the data is in the local buffer. */
    RDMA_READ(2),
    /** An atomic compare-and-swap completed: the old value is in the local buffer. */
    COMP_SWAP(3),
    /** An atomic fetch-and-add completed: the old value is in the local buffer. */
    FETCH_ADD(4),
    /** A memory window bind completed. */
    BIND_MW(5),
    /** A local invalidate completed. */
    LOCAL_INV(6),
    /** A TCP segmentation offload send completed (raw packet QPs). */
    TSO(7),
    /** A receive consumed a SEND (or SEND_WITH_IMM). */
    RECV(128),
    /** A receive consumed the immediate data of an RDMA_WRITE_WITH_IMM. */
    RECV_RDMA_WITH_IMM(129),
    /** An opcode this library does not know. */
    UNKNOWN(-1);

    private final int code;

    WcOpcode(int code) {
        this.code = code;
    }

    /**
     * The numeric code (IBV_WC_*).
     *
     * @return the code, or -1 for UNKNOWN
     */
    public int code() {
        return code;
    }

    static WcOpcode of(int code) {
        return switch (code) {
            case 0 -> SEND;
            case 1 -> RDMA_WRITE;
            case 2 -> RDMA_READ;
            case 3 -> COMP_SWAP;
            case 4 -> FETCH_ADD;
            case 5 -> BIND_MW;
            case 6 -> LOCAL_INV;
            case 7 -> TSO;
            case 128 -> RECV;
            case 129 -> RECV_RDMA_WITH_IMM;
            default -> UNKNOWN;
        };
    }
}
