package dev.verbs4j.verbs;

/** Registration failed with ENOMEM: almost always RLIMIT_MEMLOCK, so say the limit and the fix. */
public final class MemoryLockLimitException extends VerbsException {
    private final MemlockLimit limit;

    MemoryLockLimitException(String what, String verb, MemlockLimit limit) {
        super(what, verb, Errno.ENOMEM, "the locked-memory limit (RLIMIT_MEMLOCK) is " + limit.describe()
                + "; raise it with 'ulimit -l unlimited' (or a bigger size) in the shell that starts the JVM, "
                + "'memlock' in /etc/security/limits.conf, or LimitMEMLOCK= in a systemd unit; "
                + "in a VMware guest also set \"reserve all guest memory\"");
        this.limit = limit;
    }

    public MemlockLimit limit() {
        return limit;
    }
}
