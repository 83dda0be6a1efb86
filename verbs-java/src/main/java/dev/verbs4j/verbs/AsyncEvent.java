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
    public static final int CQ_ERR = 0, QP_FATAL = 1, QP_REQ_ERR = 2, QP_ACCESS_ERR = 3, COMM_EST = 4,
            SQ_DRAINED = 5, PATH_MIG = 6, PATH_MIG_ERR = 7, DEVICE_FATAL = 8, PORT_ACTIVE = 9, PORT_ERR = 10,
            LID_CHANGE = 11, PKEY_CHANGE = 12, SM_CHANGE = 13, SRQ_ERR = 14, SRQ_LIMIT_REACHED = 15,
            QP_LAST_WQE_REACHED = 16, CLIENT_REREGISTER = 17, GID_CHANGE = 18, WQ_FATAL = 19;

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
