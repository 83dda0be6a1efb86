package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;

/**
 * Registration or creation failed with ENOMEM while RLIMIT_MEMLOCK is not unlimited: almost always
 * that limit, so the message says the limit and the fix (with no limit in force, ENOMEM is a plain
 * {@link VerbsException} naming the device's limits instead). Immutable.
 */
public final class MemoryLockLimitException extends VerbsException {
    /** The limit when the verb failed. */
    private final MemlockLimit limit;

    MemoryLockLimitException(String what, String verb, MemlockLimit limit) {
        super(what, verb, Errno.ENOMEM, "the locked-memory limit (RLIMIT_MEMLOCK) is " + limit.describe()
                + "; raise it with 'ulimit -l unlimited' (or a bigger size) in the shell that starts the JVM, "
                + "'memlock' in /etc/security/limits.conf, or LimitMEMLOCK= in a systemd unit; "
                + "in a VMware guest also set \"reserve all guest memory\"");
        this.limit = limit;
    }

    /**
     * The locked-memory limit in force when the verb failed.
     *
     * @return the soft and hard RLIMIT_MEMLOCK
     */
    public MemlockLimit limit() {
        return limit;
    }
}
