package dev.verbs4j.verbs;

/** A QP state transition that the IB state machine does not allow from the QP's current state. */
public final class QpStateException extends IllegalStateException {
    private final QpState current;
    private final QpState requested;

    QpStateException(QpState current, QpState requested, String detail) {
        super("cannot move the QP from " + current + " to " + requested + (detail == null ? "" : ": " + detail));
        this.current = current;
        this.requested = requested;
    }

    public QpState current() {
        return current;
    }

    public QpState requested() {
        return requested;
    }
}
