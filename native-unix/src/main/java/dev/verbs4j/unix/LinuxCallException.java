package dev.verbs4j.unix;

/**
 * A libc call failed: what could not be done, the call, its errno and the errno's name, e.g.
 * {@code cannot connect to 10.0.0.1:7471 (connect: ECONNREFUSED)}. Its own type, not a verbs
 * error: a socket or an epoll set failing says nothing about the RDMA device.
 */
public final class LinuxCallException extends RuntimeException {
    private final String call;
    private final int errno;

    public LinuxCallException(String what, String call, int errno) {
        super((errno == 0 ? what : what + " (" + call + ": " + Errno.name(errno) + ")") + hint(errno));
        this.call = call;
        this.errno = errno;
    }

    /** What to do about an errno that names a limit: its value and how to raise it. */
    private static String hint(int errno) {
        if (errno == Errno.EMFILE) {
            return " — the open-file limit (RLIMIT_NOFILE) of this process is " + openFileLimit()
                    + ": every channel, loop and device holds some; raise it with `ulimit -n` in the shell that "
                    + "starts the JVM, LimitNOFILE= in a systemd unit, or 'nofile' in /etc/security/limits.conf";
        }
        if (errno == Errno.ENFILE) {
            return " — the system-wide table of open files is full: see `sysctl fs.file-nr` and raise fs.file-max";
        }
        return "";
    }

    private static String openFileLimit() {
        try {
            long[] limit = ResourceLimits.get(ResourceLimits.RLIMIT_NOFILE);
            return "soft " + describe(limit[0]) + ", hard " + describe(limit[1]);
        } catch (RuntimeException e) {
            return "unknown (getrlimit failed)";
        }
    }

    private static String describe(long limit) {
        return limit == ResourceLimits.UNLIMITED ? "unlimited" : Long.toString(limit);
    }

    /** The failed call's errno, captured right after it returned on this thread. */
    public static LinuxCallException last(String what, String call) {
        return new LinuxCallException(what, call, Libc.lastErrno());
    }

    /** The libc function that failed, e.g. {@code connect}. */
    public String call() {
        return call;
    }

    /** Its errno (see {@link Errno}), or 0 when it reported none. */
    public int errno() {
        return errno;
    }
}
