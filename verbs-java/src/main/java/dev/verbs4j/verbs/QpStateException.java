package dev.verbs4j.verbs;

/**
 * A QP state transition that the IB state machine does not allow from the QP's current state.
 * Thrown before ibv_modify_qp runs, so the QP is unchanged. Immutable.
 */
public final class QpStateException extends IllegalStateException {
    /** The state the QP was in. */
    private final QpState current;
    /** The state asked for. */
    private final QpState requested;

    QpStateException(QpState current, QpState requested, String detail) {
        super("cannot move the QP from " + current + " to " + requested + (detail == null ? "" : ": " + detail));
        this.current = current;
        this.requested = requested;
    }

    /**
     * The state the QP was in when the transition was refused.
     *
     * @return the current state
     */
    public QpState current() {
        return current;
    }

    /**
     * The state the caller asked for.
     *
     * @return the requested state
     */
    public QpState requested() {
        return requested;
    }
}
