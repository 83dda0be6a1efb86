package dev.verbs4j.verbs;

/** enum ibv_qp_state, in order. */
public enum QpState {
    RESET, INIT, RTR, RTS, SQD, SQE, ERR, UNKNOWN;

    private static final QpState[] VALUES = values();

    static QpState of(int value) {
        return value >= 0 && value < VALUES.length ? VALUES[value] : UNKNOWN;
    }

    /** The IBV_QPS_* value. */
    public int value() {
        return ordinal();
    }
}
