package dev.verbs4j.verbs;

/** enum ibv_mtu: the largest payload per packet on a connection's path. */
public enum PathMtu {
    MTU_256(1), MTU_512(2), MTU_1024(3), MTU_2048(4), MTU_4096(5);

    private final int value;

    PathMtu(int value) {
        this.value = value;
    }

    /** The IBV_MTU_* value. */
    public int value() {
        return value;
    }

    public int bytes() {
        return 128 << value;
    }

    /** The IBV_MTU_* value as a PathMtu, or null for 0 (not set). */
    static PathMtu of(int value) {
        for (PathMtu m : values()) {
            if (m.value == value) {
                return m;
            }
        }
        return null;
    }
}
