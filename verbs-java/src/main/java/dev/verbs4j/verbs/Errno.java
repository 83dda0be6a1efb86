package dev.verbs4j.verbs;

import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import java.util.Map;

/** errno as captured by our downcalls, with its symbolic name for messages. */
final class Errno {
    static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    static final int EPERM = 1, ENOENT = 2, EINTR = 4, EIO = 5, EAGAIN = 11, ENOMEM = 12,
            EACCES = 13, EFAULT = 14, EBUSY = 16, ENODEV = 19, EINVAL = 22, ENOSPC = 28,
            ENOSYS = 38, EOPNOTSUPP = 95, EADDRINUSE = 98, EADDRNOTAVAIL = 99, ENETUNREACH = 101,
            ECONNABORTED = 103, ECONNRESET = 104, ETIMEDOUT = 110, ECONNREFUSED = 111,
            EHOSTUNREACH = 113, EBADF = 9, EMFILE = 24, EPIPE = 32, ENOTCONN = 107, EINPROGRESS = 115;

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
            Map.entry(EBADF, "EBADF"), Map.entry(EMFILE, "EMFILE"), Map.entry(EPIPE, "EPIPE"),
            Map.entry(ENOTCONN, "ENOTCONN"), Map.entry(EINPROGRESS, "EINPROGRESS"));

    private Errno() {}

    static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate(CAPTURE_LAYOUT);
    }

    static int read(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    /** "ENOMEM" for 12; "errno 200" for numbers without a name here. */
    static String name(int errno) {
        return NAMES.getOrDefault(errno, "errno " + errno);
    }
}
