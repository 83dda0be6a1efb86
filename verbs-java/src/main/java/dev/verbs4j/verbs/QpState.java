package dev.verbs4j.verbs;

/** The state of a queue pair: enum ibv_qp_state, in order (the ordinal is the value). */
public enum QpState {
    /** Just created or reset: no work requests accepted. */
    RESET,
    /** Initialized: receives may be posted, nothing is processed yet. */
    INIT,
    /** Ready to receive: incoming messages are processed. */
    RTR,
    /** Ready to send: both queues work. */
    RTS,
    /** Send queue drained: sends stop, attributes may be changed. */
    SQD,
    /** Send queue error (UD/UC): a send failed; receives still work. */
    SQE,
    /** Error: every outstanding and new request completes with WR_FLUSH_ERR. */
    ERR,
    /** A state value this library does not know. */
    UNKNOWN;

    private static final QpState[] VALUES = values();

    static QpState of(int value) {
        return value >= 0 && value < VALUES.length ? VALUES[value] : UNKNOWN;
    }

    /**
     * The IBV_QPS_* value.
     *
     * @return the C enum value
     */
    public int value() {
        return ordinal();
    }
}
