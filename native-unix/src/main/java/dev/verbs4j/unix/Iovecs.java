package dev.verbs4j.unix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable struct iovec array in native memory, and the struct msghdr that points at it, for
 * sendmsg and recvmsg without a per-call allocation. Used by one thread at a time (its owner holds a lock
 * around fill and call), so it also keeps the errno capture of the calls made with it.
 */
public final class Iovecs {
    private static final long ENTRY = 16;
    /** struct msghdr on LP64: name, namelen (padded), iov, iovlen, control, controllen, flags (padded). */
    private static final long MSGHDR_SIZE = 56, MSGHDR_IOV = 16, MSGHDR_IOVLEN = 24;
    private final MemorySegment array;
    private final MemorySegment message;
    private int count;
    /**
     * What the native array and the msghdr's count hold now: a list refilled with the same
     * entries (a header buffer, the same receive buffer) writes no native memory again, as
     * each native write costs more than a compare where the JIT inlines little (C1).
     */
    private final long[] addresses, lengths;
    private long writtenCount;
    /** Where sendmsg and recvmsg with this list capture errno (one thread at a time, as the list). */
    private final MemorySegment callState = Libc.newCallState();

    public Iovecs(Arena arena, int capacity) {
        this.array = arena.allocate(ENTRY * capacity, 8);
        this.message = arena.allocate(MSGHDR_SIZE, 8); // zeroed: no address, no control data
        message.set(JAVA_LONG, MSGHDR_IOV, array.address());
        this.addresses = new long[capacity];
        this.lengths = new long[capacity];
    }

    /** Starts a new list. */
    public Iovecs clear() {
        count = 0;
        return this;
    }

    /** Appends {@code length} bytes at native {@code address}; empty entries are left out. */
    public Iovecs add(long address, long length) {
        if (length > 0) {
            if (addresses[count] != address) {
                array.set(JAVA_LONG, count * ENTRY, address);
                addresses[count] = address;
            }
            if (lengths[count] != length) {
                array.set(JAVA_LONG, count * ENTRY + 8, length);
                lengths[count] = length;
            }
            count++;
        }
        return this;
    }

    public int count() {
        return count;
    }

    /** The address of the msghdr for sendmsg and recvmsg, listing the entries added since {@link #clear}. */
    long messageAddress() {
        if (writtenCount != count) {
            message.set(JAVA_LONG, MSGHDR_IOVLEN, count);
            writtenCount = count;
        }
        return message.address();
    }

    MemorySegment callState() {
        return callState;
    }
}
