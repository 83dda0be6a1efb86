package dev.verbs4j.verbs;

/** enum ibv_send_flags. Combine with {@link #mask(SendFlag...)} once, outside the hot path. */
public enum SendFlag {
    /** Wait for earlier RDMA reads and atomics to finish before this request starts. */
    FENCE(1),
    /** Produce a completion on the send CQ (without it, only errors complete unless sq_sig_all). */
    SIGNALED(1 << 1),
    /** Wake a receiver that armed its CQ for solicited events only. */
    SOLICITED(1 << 2),
    /** Copy the payload into the WR at post time: no lkey needed, buffer reusable at once. */
    INLINE(1 << 3);

    private final int bit;

    SendFlag(int bit) {
        this.bit = bit;
    }

    /**
     * The flag's bit in {@code ibv_send_flags}.
     *
     * @return the single-bit mask
     */
    public int bit() {
        return bit;
    }

    /**
     * The bit mask {@link PreparedSend#flags(int, int)} takes. Allocates the varargs array: call it
     * once, outside the hot path.
     *
     * @param flags the flags, possibly none
     * @return the OR of their bits, 0 for none
     */
    public static int mask(SendFlag... flags) {
        int m = 0;
        for (SendFlag f : flags) {
            m |= f.bit;
        }
        return m;
    }
}
