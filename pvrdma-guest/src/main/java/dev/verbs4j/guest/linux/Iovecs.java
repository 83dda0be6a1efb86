package dev.verbs4j.guest.linux;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable struct iovec array in native memory, for readv/writev without a per-call
 * allocation. Used by one thread at a time (its owner holds a lock around fill and call).
 */
public final class Iovecs {
    private static final long ENTRY = 16;
    private final MemorySegment array;
    private int count;

    public Iovecs(Arena arena, int capacity) {
        this.array = arena.allocate(ENTRY * capacity, 8);
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

    MemorySegment array() {
        return array;
    }
}
