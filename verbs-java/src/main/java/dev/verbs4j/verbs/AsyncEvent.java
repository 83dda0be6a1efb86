package dev.verbs4j.verbs;

/**
 * One asynchronous event of a device ({@code struct ibv_async_event}), delivered to an
 * {@link AsyncEventListener}. An immutable value; the constants are the IBV_EVENT_* values of
 * {@code type}.
 *
 * @param type    IBV_EVENT_* value
 * @param name    its name as rdma-core spells it (ibv_event_type_str), e.g. "port active"
 * @param port    the port for port events, else 0
 * @param element address of the QP, CQ or SRQ the event is about, else 0
 */
public record AsyncEvent(int type, String name, int port, long element) {
    /** A CQ overran or failed; it is unusable. */
    public static final int CQ_ERR = 0;
    /** A QP hit an error that is not a work request's; it went to ERR. */
    public static final int QP_FATAL = 1;
    /** A QP received an invalid request from its peer; it went to ERR. */
    public static final int QP_REQ_ERR = 2;
    /** A QP's peer broke an access rule (e.g. a bad rkey); the QP went to ERR. */
    public static final int QP_ACCESS_ERR = 3;
    /** The first packet arrived on a QP in RTR: communication is established. */
    public static final int COMM_EST = 4;
    /** A QP in SQD has no more outstanding sends. */
    public static final int SQ_DRAINED = 5;
    /** A QP migrated to its alternate path. */
    public static final int PATH_MIG = 6;
    /** Path migration failed. */
    public static final int PATH_MIG_ERR = 7;
    /** The device failed: close everything on it and reopen it. */
    public static final int DEVICE_FATAL = 8;
    /** A port became active. */
    public static final int PORT_ACTIVE = 9;
    /** A port left the active state (link down). */
    public static final int PORT_ERR = 10;
    /** A port's LID changed. */
    public static final int LID_CHANGE = 11;
    /** A port's P_Key table changed. */
    public static final int PKEY_CHANGE = 12;
    /** A port's subnet manager changed. */
    public static final int SM_CHANGE = 13;
    /** An SRQ failed; it is unusable. */
    public static final int SRQ_ERR = 14;
    /** An SRQ fell below its armed limit (see SharedReceiveQueue.armLimit); re-arm it after refilling. */
    public static final int SRQ_LIMIT_REACHED = 15;
    /** A QP on an SRQ in ERR will take no more receives from it. */
    public static final int QP_LAST_WQE_REACHED = 16;
    /** The subnet manager asks clients to register again. */
    public static final int CLIENT_REREGISTER = 17;
    /** A port's GID table changed (e.g. an IP address was added or removed). */
    public static final int GID_CHANGE = 18;
    /** A work queue failed. */
    public static final int WQ_FATAL = 19;

    /**
     * True when this event is about {@code qp} (QP_FATAL, QP_ACCESS_ERR, COMM_EST, ...).
     *
     * @param qp a queue pair
     * @return whether the event names it; false once {@code qp} is closed (its address may be reused)
     */
    public boolean concerns(QueuePair qp) {
        return isAbout(qp);
    }

    /**
     * True when this event is about {@code cq} (CQ_ERR).
     *
     * @param cq a completion queue
     * @return whether the event names it; false once {@code cq} is closed
     */
    public boolean concerns(CompletionQueue cq) {
        return isAbout(cq);
    }

    /**
     * True when this event is about {@code srq} (SRQ_LIMIT_REACHED, SRQ_ERR).
     *
     * @param srq a shared receive queue
     * @return whether the event names it; false once {@code srq} is closed
     */
    public boolean concerns(SharedReceiveQueue srq) {
        return isAbout(srq);
    }

    private boolean isAbout(NativeObject object) {
        // a closed object's address may have been reused; it cannot be what a new event is about
        return !isPortEvent() && element != 0 && !object.isClosed() && object.handle().address() == element;
    }

    /**
     * True for events about a port (its element is a port number).
     *
     * @return true for PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER
     *         and GID_CHANGE
     */
    public boolean isPortEvent() {
        return switch (type) {
            case PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER, GID_CHANGE -> true;
            default -> false;
        };
    }
}
