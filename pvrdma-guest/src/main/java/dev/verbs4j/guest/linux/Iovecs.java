package dev.verbs4j.guest.linux;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable struct iovec array in native memory, and the struct msghdr that points at it, for
 * sendmsg and recvmsg without a per-call allocation. Used by one thread at a time (its owner holds a lock
 * around fill and call).
 */
public final class Iovecs {
    private static final long ENTRY = 16;
    /** struct msghdr on LP64: name, namelen (padded), iov, iovlen, control, controllen, flags (padded). */
    private static final long MSGHDR_SIZE = 56, MSGHDR_IOV = 16, MSGHDR_IOVLEN = 24;
    private final MemorySegment array;
    private final MemorySegment message;
    private int count;

    public Iovecs(Arena arena, int capacity) {
        this.array = arena.allocate(ENTRY * capacity, 8);
        this.message = arena.allocate(MSGHDR_SIZE, 8); // zeroed: no address, no control data
        message.set(JAVA_LONG, MSGHDR_IOV, array.address());
    }

    /** Starts a new list. */
    public Iovecs clear() {
        count = 0;
        return this;
    }

    /** Appends {@code length} bytes at native {@code address}; empty entries are left out. */
    public Iovecs add(long address, long length) {
        if (length > 0) {
            array.set(JAVA_LONG, count * ENTRY, address);
            array.set(JAVA_LONG, count * ENTRY + 8, length);
            count++;
        }
        return this;
    }

    public int count() {
        return count;
    }

    /** The msghdr for sendmsg, listing the entries added since {@link #clear}. */
    MemorySegment message() {
        message.set(JAVA_LONG, MSGHDR_IOVLEN, count);
        return message;
    }
}
