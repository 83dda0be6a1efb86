package dev.verbs4j.verbs;

/** Transport service of a queue pair (enum ibv_qp_type, the kinds verbs4j supports). */
public enum QpType {
    /** Reliable connected: every operation, acknowledged and retried by the device. */
    RC(2),
    /** Unreliable connected: sends and RDMA writes, no reads or atomics, no retries. */
    UC(3),
    /** Unreliable datagram: sends only, each addressed by an address handle, at most one MTU. */
    UD(4);

    private final int value;

    QpType(int value) {
        this.value = value;
    }

    /**
     * The IBV_QPT_* value.
     *
     * @return the C enum value
     */
    public int value() {
        return value;
    }

    static QpType of(int value) {
        for (QpType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("unsupported QP type " + value);
    }
}
