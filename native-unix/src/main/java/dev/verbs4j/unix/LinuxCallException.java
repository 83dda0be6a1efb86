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
        super(errno == 0 ? what : what + " (" + call + ": " + Errno.name(errno) + ")");
        this.call = call;
        this.errno = errno;
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
