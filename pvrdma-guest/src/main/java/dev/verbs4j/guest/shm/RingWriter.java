package dev.verbs4j.guest.shm;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.unix.EventFd;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The producing end of one ring: claims room for a record behind the consumer's position,
 * commits it, and wakes the consumer when it asked to be woken. The consumer's position is
 * read from memory the peer writes: it is checked (it never goes back, never passes what was
 * written) before anything relies on it.
 *
 * <p>Not thread-safe: the channel's producer lock is held around every call.
 */
final class RingWriter {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment data;
    private final MemorySegment control;
    private final long capacity;
    private final EventFd consumerWake;
    /** Where the next record goes. */
    private long tail;
    /** The consumer's position as last read (and checked). */
    private long head;

    RingWriter(MemorySegment data, MemorySegment control, EventFd consumerWake) {
        this.data = data;
        this.control = control;
        this.capacity = data.byteSize();
        this.consumerWake = consumerWake;
    }

    MemorySegment data() {
        return data;
    }

    /**
     * Room for a record with a body of {@code bodyLength} bytes: its offset in {@link #data},
     * or -1 when the ring is full. A record never wraps: the rest of the ring is padded first.
     */
    long claim(long bodyLength) {
        long size = ShmRecord.align(ShmRecord.HEADER + bodyLength);
        long offset = tail % capacity;
        long rest = capacity - offset;
        long pad = rest < size ? rest : 0;
        if (tail + pad + size - head > capacity && tail + pad + size - readHead() > capacity) {
            return -1;
        }
        if (pad > 0) {
            if (rest >= ShmRecord.HEADER) { // a shorter rest the consumer skips by the same rule
                writeHeader(offset, (int) (rest - ShmRecord.HEADER), ShmRecord.PADDING, 0, 0);
                LONG.setRelease(data, offset + ShmRecord.COMMIT, tail + 1);
            }
            tail += pad;
            offset = 0;
        }
        return offset;
    }

    /** Commits the record claimed at {@code offset}; returns the position after it. */
    long commit(long offset, int bodyLength, int type, int immediate, int flags) {
        writeHeader(offset, bodyLength, type, immediate, flags);
        LONG.setRelease(data, offset + ShmRecord.COMMIT, tail + 1);
        tail += ShmRecord.align(ShmRecord.HEADER + bodyLength);
        long rest = capacity - tail % capacity;
        if (rest < ShmRecord.HEADER) {
            tail += rest; // too short for a header: the consumer skips it as soon as it gets here, so it is written
        }
        return tail;
    }

    /** After a commit: the consumer hears of it if it sleeps (its flag is read after the commit). */
    void wakeConsumerIfArmed() {
        VarHandle.fullFence();
        if ((long) LONG.getVolatile(control, ShmLayout.ARMED) != 0
                && LONG.compareAndSet(control, ShmLayout.ARMED, 1L, 0L)) {
            consumerWake.signal();
        }
    }

    /** The consumer's position, checked: it moves forward and never past what was written. */
    long readHead() {
        long h = (long) LONG.getAcquire(control, ShmLayout.HEAD);
        if (h < head || h > tail) {
            throw new ChannelException(ChannelError.TRANSPORT, "the peer's position in the ring (" + h
                    + ") is outside [" + head + ", " + tail + "]: the shared segment is corrupt");
        }
        head = h;
        return h;
    }

    /** Asks the consumer to wake this side when it moves its position (the flag is set before a last look). */
    void wantSpace(boolean want) {
        LONG.setVolatile(control, ShmLayout.SPACE_WANTED, want ? 1L : 0L);
    }

    long tail() {
        return tail;
    }

    private void writeHeader(long offset, int bodyLength, int type, int immediate, int flags) {
        data.set(ValueLayout.JAVA_INT, offset + ShmRecord.LENGTH, bodyLength);
        data.set(ValueLayout.JAVA_INT, offset + ShmRecord.TYPE, type);
        data.set(ValueLayout.JAVA_INT, offset + ShmRecord.IMMEDIATE, immediate);
        data.set(ValueLayout.JAVA_INT, offset + ShmRecord.FLAGS, flags);
    }
}
