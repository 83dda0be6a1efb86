package dev.verbs4j.netty;

import io.netty.buffer.ByteBuf;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Bytes that arrived before the application asked to read them (auto-read off, or more than one
 * read loop takes): a ring of the receive window's size, which the peer cannot overrun, since it
 * sends no more than the window until this side has read and credited bytes back.
 */
final class ReceiveRing {
    private final MemorySegment memory;
    private final int capacity;
    /** Bytes ever read from and written to the ring: their difference is what it holds. */
    private long head, tail;

    ReceiveRing(int capacity) {
        this.capacity = capacity;
        this.memory = Arena.ofAuto().allocate(capacity, 64);
    }

    int size() {
        return (int) (tail - head);
    }

    boolean isEmpty() {
        return head == tail;
    }

    /** Keeps {@code [offset, offset + length)} of {@code source}. */
    void append(MemorySegment source, long offset, int length) {
        if (length > capacity - size()) {
            throw new IllegalStateException("the peer sent " + length + " bytes with " + (capacity - size())
                    + " left of the window of " + capacity);
        }
        int at = (int) (tail % capacity);
        int first = Math.min(length, capacity - at);
        MemorySegment.copy(source, offset, memory, at, first);
        MemorySegment.copy(source, offset + first, memory, 0, length - first);
        tail += length;
    }

    /** Moves up to {@code target}'s writable bytes out of the ring into it; how many it moved. */
    int moveTo(ByteBuf target, Copies copies) {
        int n = Math.min(size(), target.writableBytes());
        int at = (int) (head % capacity);
        int first = Math.min(n, capacity - at);
        copies.append(memory, at, first, target);
        if (n > first) {
            copies.append(memory, 0, n - first, target);
        }
        head += n;
        return n;
    }
}
