package dev.verbs4j.guest.linux;

import dev.verbs4j.verbs.VerbsException;

/** A libc call failed: the call, its errno and the errno's name, as for a failed verb. */
public final class LinuxCallException extends VerbsException {
    public static final int EAGAIN = 11, EINTR = 4, EINPROGRESS = 115, ECONNRESET = 104, EPIPE = 32, ENOSYS = 38;

    LinuxCallException(String what, String call, int errno) {
        super(what, call, errno, null);
    }

    /** The failed call's errno, captured right after it returned on this thread. */
    static LinuxCallException last(String what, String call) {
        return new LinuxCallException(what, call, Libc.lastErrno());
    }
}
