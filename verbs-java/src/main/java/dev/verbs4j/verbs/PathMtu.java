package dev.verbs4j.verbs;

/** enum ibv_mtu: the largest payload per packet on a connection's path. */
public enum PathMtu {
    /** 256 bytes. */
    MTU_256(1),
    /** 512 bytes. */
    MTU_512(2),
    /** 1024 bytes: what RoCE ports on a 1500-byte Ethernet MTU use. */
    MTU_1024(3),
    /** 2048 bytes. */
    MTU_2048(4),
    /** 4096 bytes: RoCE on jumbo frames, InfiniBand. */
    MTU_4096(5);

    private final int value;

    PathMtu(int value) {
        this.value = value;
    }

    /**
     * The IBV_MTU_* value.
     *
     * @return 1 to 5
     */
    public int value() {
        return value;
    }

    /**
     * The payload bytes per packet.
     *
     * @return 256 to 4096
     */
    public int bytes() {
        return 128 << value;
    }

    /**
     * The IBV_MTU_* value (as {@link PortAttributes#activeMtu()} reports it) as a PathMtu.
     *
     * @param value 1 to 5, or 0 for "not set"
     * @return the PathMtu, or null for 0 and any value outside 1..5
     */
    public static PathMtu of(int value) {
        for (PathMtu m : values()) {
            if (m.value == value) {
                return m;
            }
        }
        return null;
    }
}
