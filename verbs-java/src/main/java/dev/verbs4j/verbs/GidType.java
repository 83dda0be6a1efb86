package dev.verbs4j.verbs;

/** What a GID entry addresses: enum ibv_gid_type_sysfs. */
public enum GidType {
    IB("IB"), ROCE_V1("RoCE v1"), ROCE_V2("RoCE v2");

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

    /** As ibv_devinfo -v prints it. */
    public String label() {
        return label;
    }
}
