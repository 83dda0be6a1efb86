package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;

/** Every {@code RDMA_CM_EVENT_*}; the names are those rdma_event_str prints, without the prefix. */
public enum CmEventType {
    /** The destination address resolved to a local device and port. */
    ADDR_RESOLVED(Rdma.RDMA_CM_EVENT_ADDR_RESOLVED(), false),
    /** Address resolution failed; the status carries the errno. */
    ADDR_ERROR(Rdma.RDMA_CM_EVENT_ADDR_ERROR(), true),
    /** The route to the destination resolved; the client may create its QP and connect. */
    ROUTE_RESOLVED(Rdma.RDMA_CM_EVENT_ROUTE_RESOLVED(), false),
    /** Route resolution failed; the status carries the errno. */
    ROUTE_ERROR(Rdma.RDMA_CM_EVENT_ROUTE_ERROR(), true),
    /** A client asks to connect to a listening id; the event carries a new id for it. */
    CONNECT_REQUEST(Rdma.RDMA_CM_EVENT_CONNECT_REQUEST(), false),
    /** The server answered a connect on an id without a CM QP; the client must complete it itself. */
    CONNECT_RESPONSE(Rdma.RDMA_CM_EVENT_CONNECT_RESPONSE(), false),
    /** Establishing the connection failed. */
    CONNECT_ERROR(Rdma.RDMA_CM_EVENT_CONNECT_ERROR(), true),
    /** The peer did not answer, or is not reachable. */
    UNREACHABLE(Rdma.RDMA_CM_EVENT_UNREACHABLE(), true),
    /** The peer rejected the connection (or no one listens there); the status carries the reason. */
    REJECTED(Rdma.RDMA_CM_EVENT_REJECTED(), true),
    /** The connection is up: the QP is in RTS. */
    ESTABLISHED(Rdma.RDMA_CM_EVENT_ESTABLISHED(), false),
    /** The connection was torn down by either end. */
    DISCONNECTED(Rdma.RDMA_CM_EVENT_DISCONNECTED(), false),
    /** The id's RDMA device is being removed: close the id and everything on its device. */
    DEVICE_REMOVAL(Rdma.RDMA_CM_EVENT_DEVICE_REMOVAL(), true),
    /** A multicast join completed. */
    MULTICAST_JOIN(Rdma.RDMA_CM_EVENT_MULTICAST_JOIN(), false),
    /** A multicast join failed, or the group had an error. */
    MULTICAST_ERROR(Rdma.RDMA_CM_EVENT_MULTICAST_ERROR(), true),
    /** The network address the id was bound to changed (e.g. a bonding failover). */
    ADDR_CHANGE(Rdma.RDMA_CM_EVENT_ADDR_CHANGE(), false),
    /** The QP left the timewait state and may be reused. */
    TIMEWAIT_EXIT(Rdma.RDMA_CM_EVENT_TIMEWAIT_EXIT(), false);

    private static final CmEventType[] BY_VALUE = byValue();

    private final int value;
    private final boolean failure;

    CmEventType(int value, boolean failure) {
        this.value = value;
        this.failure = failure;
    }

    /**
     * The RDMA_CM_EVENT_* value.
     *
     * @return the C enum value
     */
    public int value() {
        return value;
    }

    /**
     * True for the events that report that an operation failed.
     *
     * @return whether this event type reports a failure
     */
    public boolean isFailure() {
        return failure;
    }

    static CmEventType of(int value) {
        if (value < 0 || value >= BY_VALUE.length || BY_VALUE[value] == null) {
            throw new IllegalArgumentException("unknown rdma_cm event " + value);
        }
        return BY_VALUE[value];
    }

    private static CmEventType[] byValue() {
        int max = 0;
        for (CmEventType t : values()) {
            max = Math.max(max, t.value);
        }
        CmEventType[] table = new CmEventType[max + 1];
        for (CmEventType t : values()) {
            table[t.value] = t;
        }
        return table;
    }
}
