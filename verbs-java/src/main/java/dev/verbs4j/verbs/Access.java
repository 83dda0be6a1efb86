package dev.verbs4j.verbs;

import java.util.Set;

/** Memory-region and QP access flags (enum ibv_access_flags). */
public enum Access {
    LOCAL_WRITE(1), REMOTE_WRITE(1 << 1), REMOTE_READ(1 << 2), REMOTE_ATOMIC(1 << 3), MW_BIND(1 << 4),
    ZERO_BASED(1 << 5), ON_DEMAND(1 << 6), HUGETLB(1 << 7), RELAXED_ORDERING(1 << 20);

    private final int bit;

    Access(int bit) {
        this.bit = bit;
    }

    public int bit() {
        return bit;
    }

    /** Everything a peer may do to a buffer in the usual RDMA patterns. */
    public static final Set<Access> ALL_REMOTE = Set.of(LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC);

    public static int mask(Set<Access> flags) {
        int m = 0;
        for (Access a : flags) {
            m |= a.bit;
        }
        return m;
    }
}
