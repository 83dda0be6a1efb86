package dev.verbs4j.verbs;

import dev.verbs4j.unix.LinuxCallException;
import dev.verbs4j.unix.ResourceLimits;

/**
 * RLIMIT_MEMLOCK of this process: memory registration pins pages, and the pinned total may not
 * exceed it (unless the process has CAP_IPC_LOCK). An immutable value.
 *
 * @param soft the soft limit in bytes, or {@link #UNLIMITED}
 * @param hard the hard limit in bytes, or {@link #UNLIMITED}
 */
public record MemlockLimit(long soft, long hard) {
    /** The value of an unlimited limit ({@code RLIM_INFINITY}). */
    public static final long UNLIMITED = -1;

    /**
     * Reads the limit in force now ({@code getrlimit}).
     *
     * @return the process's limit, or 0/0 if getrlimit fails
     */
    public static MemlockLimit current() {
        try {
            long[] limit = ResourceLimits.get(ResourceLimits.RLIMIT_MEMLOCK);
            return new MemlockLimit(limit[0], limit[1]);
        } catch (LinuxCallException e) {
            return new MemlockLimit(0, 0);
        }
    }

    /**
     * Whether registration is unlimited by the soft limit.
     *
     * @return true when the soft limit is {@link #UNLIMITED}
     */
    public boolean isUnlimited() {
        return soft == UNLIMITED;
    }

    /**
     * Human-readable form, e.g. "8 MiB (hard 8 MiB)".
     *
     * @return the soft limit and, in parentheses, the hard one
     */
    public String describe() {
        return size(soft) + " (hard " + size(hard) + ")";
    }

    private static String size(long bytes) {
        if (bytes == UNLIMITED) {
            return "unlimited";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " bytes";
    }
}
