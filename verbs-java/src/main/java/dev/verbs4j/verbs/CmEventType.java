package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;

/** Every {@code RDMA_CM_EVENT_*}; the names are those rdma_event_str prints, without the prefix. */
public enum CmEventType {
    ADDR_RESOLVED(Rdma.RDMA_CM_EVENT_ADDR_RESOLVED(), false),
    ADDR_ERROR(Rdma.RDMA_CM_EVENT_ADDR_ERROR(), true),
    ROUTE_RESOLVED(Rdma.RDMA_CM_EVENT_ROUTE_RESOLVED(), false),
    ROUTE_ERROR(Rdma.RDMA_CM_EVENT_ROUTE_ERROR(), true),
    CONNECT_REQUEST(Rdma.RDMA_CM_EVENT_CONNECT_REQUEST(), false),
    CONNECT_RESPONSE(Rdma.RDMA_CM_EVENT_CONNECT_RESPONSE(), false),
    CONNECT_ERROR(Rdma.RDMA_CM_EVENT_CONNECT_ERROR(), true),
    UNREACHABLE(Rdma.RDMA_CM_EVENT_UNREACHABLE(), true),
    REJECTED(Rdma.RDMA_CM_EVENT_REJECTED(), true),
    ESTABLISHED(Rdma.RDMA_CM_EVENT_ESTABLISHED(), false),
    DISCONNECTED(Rdma.RDMA_CM_EVENT_DISCONNECTED(), false),
    DEVICE_REMOVAL(Rdma.RDMA_CM_EVENT_DEVICE_REMOVAL(), true),
    MULTICAST_JOIN(Rdma.RDMA_CM_EVENT_MULTICAST_JOIN(), false),
    MULTICAST_ERROR(Rdma.RDMA_CM_EVENT_MULTICAST_ERROR(), true),
    ADDR_CHANGE(Rdma.RDMA_CM_EVENT_ADDR_CHANGE(), false),
    TIMEWAIT_EXIT(Rdma.RDMA_CM_EVENT_TIMEWAIT_EXIT(), false);

    private static final CmEventType[] BY_VALUE = byValue();

    private final int value;
    private final boolean failure;

    CmEventType(int value, boolean failure) {
        this.value = value;
        this.failure = failure;
    }

    /** The RDMA_CM_EVENT_* value. */
    public int value() {
        return value;
    }

    /** True for the events that report that an operation failed. */
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
