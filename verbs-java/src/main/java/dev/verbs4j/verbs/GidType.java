package dev.verbs4j.verbs;

/** What a GID entry addresses: enum ibv_gid_type_sysfs. Immutable. */
public enum GidType {
    /** InfiniBand (also what non-RoCE sysfs entries read as). */
    IB("IB"),
    /** RoCE v1: RDMA over Ethernet, not routable (ethertype 0x8915). */
    ROCE_V1("RoCE v1"),
    /** RoCE v2: RDMA over UDP/IP (port 4791), routable; what soft-RoCE and PVRDMA use. */
    ROCE_V2("RoCE v2");

    private final String label;

    GidType(String label) {
        this.label = label;
    }

    static GidType of(int value) {
        return switch (value) {
            case 1 -> ROCE_V1;
            case 2 -> ROCE_V2;
            default -> IB;
        };
    }

    /**
     * The type as ibv_devinfo -v prints it.
     *
     * @return "IB", "RoCE v1" or "RoCE v2"
     */
    public String label() {
        return label;
    }
}
