package dev.verbs4j.unix;

import java.util.Map;

/** errno values verbs4j looks at, and their symbolic names for messages (Linux numbering). */
public final class Errno {
    public static final int EPERM = 1, ENOENT = 2, EINTR = 4, EIO = 5, EBADF = 9, EAGAIN = 11, ENOMEM = 12,
            EACCES = 13, EFAULT = 14, EBUSY = 16, ENODEV = 19, EINVAL = 22, ENFILE = 23, EMFILE = 24, ENOSPC = 28,
            EPIPE = 32, ENOSYS = 38, EOPNOTSUPP = 95, EADDRINUSE = 98, EADDRNOTAVAIL = 99, ENETUNREACH = 101,
            ECONNABORTED = 103, ECONNRESET = 104, ENOTCONN = 107, ETIMEDOUT = 110, ECONNREFUSED = 111,
            EHOSTUNREACH = 113, EINPROGRESS = 115;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(EPERM, "EPERM"), Map.entry(ENOENT, "ENOENT"), Map.entry(EINTR, "EINTR"),
            Map.entry(EIO, "EIO"), Map.entry(EAGAIN, "EAGAIN"), Map.entry(ENOMEM, "ENOMEM"),
            Map.entry(EACCES, "EACCES"), Map.entry(EFAULT, "EFAULT"), Map.entry(EBUSY, "EBUSY"),
            Map.entry(ENODEV, "ENODEV"), Map.entry(EINVAL, "EINVAL"), Map.entry(ENOSPC, "ENOSPC"),
            Map.entry(ENOSYS, "ENOSYS"), Map.entry(EOPNOTSUPP, "EOPNOTSUPP"),
            Map.entry(EADDRINUSE, "EADDRINUSE"), Map.entry(EADDRNOTAVAIL, "EADDRNOTAVAIL"),
            Map.entry(ENETUNREACH, "ENETUNREACH"), Map.entry(ECONNABORTED, "ECONNABORTED"),
            Map.entry(ECONNRESET, "ECONNRESET"), Map.entry(ETIMEDOUT, "ETIMEDOUT"),
            Map.entry(ECONNREFUSED, "ECONNREFUSED"), Map.entry(EHOSTUNREACH, "EHOSTUNREACH"),
            Map.entry(EBADF, "EBADF"), Map.entry(EMFILE, "EMFILE"), Map.entry(ENFILE, "ENFILE"), Map.entry(EPIPE, "EPIPE"),
            Map.entry(ENOTCONN, "ENOTCONN"), Map.entry(EINPROGRESS, "EINPROGRESS"));

    private Errno() {}

    /** "ENOMEM" for 12; "errno 200" for numbers without a name here. */
    public static String name(int errno) {
        return NAMES.getOrDefault(errno, "errno " + errno);
    }
}
