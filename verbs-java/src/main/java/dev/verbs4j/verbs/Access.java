package dev.verbs4j.verbs;

import java.util.Set;

/**
 * Memory-region and QP access flags (enum ibv_access_flags). Pass a {@link java.util.Set} of them
 * to {@link ProtectionDomain#register}; QPs take the remote ones at the INIT transition.
 */
public enum Access {
    /** The local device may write the memory (receives, RDMA read and atomic results). */
    LOCAL_WRITE(1),
    /** A peer may RDMA-write the memory (a region with it needs LOCAL_WRITE too). */
    REMOTE_WRITE(1 << 1),
    /** A peer may RDMA-read the memory. */
    REMOTE_READ(1 << 2),
    /** A peer may run atomics on the memory (a region with it needs LOCAL_WRITE too). */
    REMOTE_ATOMIC(1 << 3),
    /** Memory windows may be bound to the region. */
    MW_BIND(1 << 4),
    /** Remote addresses are offsets from the region's start instead of virtual addresses. */
    ZERO_BASED(1 << 5),
    /** On-demand paging: pages are pinned when the device touches them (few devices support it). */
    ON_DEMAND(1 << 6),
    /** The memory is backed by huge pages (a hint to the provider). */
    HUGETLB(1 << 7),
    /** The device may reorder PCIe writes to this memory for speed. */
    RELAXED_ORDERING(1 << 20);

    private final int bit;

    Access(int bit) {
        this.bit = bit;
    }

    /**
     * The flag's bit in {@code ibv_access_flags}.
     *
     * @return the single-bit mask, e.g. 1 for LOCAL_WRITE
     */
    public int bit() {
        return bit;
    }

    /**
     * Everything a peer may do to a buffer in the usual RDMA patterns: local write plus remote write,
     * read and atomics. Immutable.
     */
    public static final Set<Access> ALL_REMOTE = Set.of(LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC);

    /**
     * The bit mask the verbs take for a set of flags.
     *
     * @param flags the flags, possibly empty
     * @return the OR of their {@link #bit()}s, 0 for an empty set
     * @throws NullPointerException if {@code flags} is null
     */
    public static int mask(Set<Access> flags) {
        int m = 0;
        for (Access a : flags) {
            m |= a.bit;
        }
        return m;
    }
}
