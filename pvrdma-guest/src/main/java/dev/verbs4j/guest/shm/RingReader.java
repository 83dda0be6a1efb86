package dev.verbs4j.guest.shm;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.unix.EventFd;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The consuming end of one ring. The ring is written by another process and is untrusted: each
 * header word is read once, and a length that is negative, too long for its type or reaching
 * past the ring's end, or a type that is none of ours, ends the channel
 * ({@link ChannelError#TRANSPORT}) before anything is read from the body. Its own position is
 * kept here and only published to the segment, never read back from it.
 *
 * <p>Loop passes only.
 */
final class RingReader {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final int NONE = 0;

    private final MemorySegment data;
    private final MemorySegment control;
    private final long capacity;
    private final int maxMessageSize;
    private final EventFd producerWake;
    private long head;
    private long published;
    /** The record {@link #next} found: where its body starts, and how long it is. */
    private long bodyAt;
    private int bodyLength;
    private int immediate, flags;
    private long size;

    RingReader(MemorySegment data, MemorySegment control, int maxMessageSize, EventFd producerWake) {
        this.data = data;
        this.control = control;
        this.capacity = data.byteSize();
        this.maxMessageSize = maxMessageSize;
        this.producerWake = producerWake;
    }

    MemorySegment data() {
        return data;
    }

    /** The type of the committed record at this side's position (padding skipped), or {@link #NONE}. */
    int next() {
        while (true) {
            long offset = head % capacity;
            long rest = capacity - offset;
            if (rest < ShmRecord.HEADER) {
                head += rest; // too short for a header: the producer skipped it too
                continue;
            }
            if ((long) LONG.getAcquire(data, offset + ShmRecord.COMMIT) != head + 1) {
                return NONE;
            }
            int length = data.get(ValueLayout.JAVA_INT, offset + ShmRecord.LENGTH);
            int type = data.get(ValueLayout.JAVA_INT, offset + ShmRecord.TYPE);
            long max = ShmRecord.maxBody(type, maxMessageSize);
            if (max < 0) {
                throw corrupt("a record of unknown type " + type + " at position " + head);
            }
            long recordSize = ShmRecord.align(ShmRecord.HEADER + (long) length);
            if (length < ShmRecord.minBody(type) || length > max || recordSize > rest) {
                throw corrupt("a record of type " + type + " with a body of " + length + " bytes at offset " + offset
                        + " of a ring of " + capacity);
            }
            if (type == ShmRecord.PADDING) {
                if (recordSize != rest) {
                    throw corrupt("padding of " + length + " bytes that does not end the ring");
                }
                head += rest;
                continue;
            }
            bodyAt = offset + ShmRecord.HEADER;
            bodyLength = length;
            immediate = data.get(ValueLayout.JAVA_INT, offset + ShmRecord.IMMEDIATE);
            flags = data.get(ValueLayout.JAVA_INT, offset + ShmRecord.FLAGS);
            size = recordSize;
            return type;
        }
    }

    long bodyAt() {
        return bodyAt;
    }

    int bodyLength() {
        return bodyLength;
    }

    int immediate() {
        return immediate;
    }

    boolean hasImmediate() {
        return (flags & ShmRecord.HAS_IMMEDIATE) != 0;
    }

    /** Done with the record {@link #next} found. */
    void advance() {
        head += size;
    }

    /**
     * Publishes this side's position (the producer may reuse what lies before it), and wakes the
     * producer if it asked to be told; true when there was something new to publish.
     */
    boolean publish() {
        if (head == published) {
            return false;
        }
        published = head;
        LONG.setRelease(control, ShmLayout.HEAD, head);
        VarHandle.fullFence();
        if ((long) LONG.getVolatile(control, ShmLayout.SPACE_WANTED) != 0
                && LONG.compareAndSet(control, ShmLayout.SPACE_WANTED, 1L, 0L)) {
            producerWake.signal();
        }
        return true;
    }

    /** Asks the producer to wake this side after its next commit (set before the loop's last look); false clears it. */
    void arm(boolean armed) {
        LONG.setVolatile(control, ShmLayout.ARMED, armed ? 1L : 0L);
    }

    private static ChannelException corrupt(String what) {
        return new ChannelException(ChannelError.TRANSPORT, "the peer's ring is corrupt: " + what);
    }
}
