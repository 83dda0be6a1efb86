package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The TCP transport's frames: a 4-byte length (of what follows), a 1-byte type, then the
 * type's fields, big-endian. A message is delivered only once its whole frame has arrived.
 *
 * <pre>
 * MESSAGE     flags(1: bit 0 = immediate present) immediate(4) payload
 * WRITE       id(8) address(8) key(4) payload
 * READ        id(8) address(8) key(4) length(4)
 * WRITE_DONE  id(8) status(1)
 * READ_DONE   id(8) status(1) payload
 * CLOSE       (nothing)
 * </pre>
 *
 * <p>Each method writes a frame's header (everything before the payload) into the sender's
 * reusable header memory and returns its length; the payload is written from its own memory
 * behind it with one gathering write, so neither is allocated nor copied per frame.
 */
final class TcpFrame {
    static final byte MESSAGE = 1, WRITE = 2, READ = 3, WRITE_DONE = 4, READ_DONE = 5, CLOSE = 6;
    static final byte STATUS_OK = 0, STATUS_REMOTE_ACCESS = 1;
    static final int LENGTH_FIELD = 4;
    /** A MESSAGE's fields after its type (flags, immediate), and its whole header before the payload. */
    static final int MESSAGE_FIELDS = 1 + 1 + 4, MESSAGE_HEADER = LENGTH_FIELD + MESSAGE_FIELDS;
    /** Room for the longest header (READ: 4 + 1 + 24). */
    static final int MAX_HEADER = 32;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private TcpFrame() {}

    static int message(MemorySegment h, long payload, boolean hasImmediate, int immediate) {
        int at = start(h, MESSAGE, 1 + 4, payload);
        h.set(ValueLayout.JAVA_BYTE, at, (byte) (hasImmediate ? 1 : 0));
        h.set(INT, at + 1, immediate);
        return at + 5;
    }

    static int write(MemorySegment h, long id, long address, int key, long payload) {
        int at = start(h, WRITE, 8 + 8 + 4, payload);
        h.set(LONG, at, id);
        h.set(LONG, at + 8, address);
        h.set(INT, at + 16, key);
        return at + 20;
    }

    static int read(MemorySegment h, long id, long address, int key, int length) {
        int at = start(h, READ, 8 + 8 + 4 + 4, 0);
        h.set(LONG, at, id);
        h.set(LONG, at + 8, address);
        h.set(INT, at + 16, key);
        h.set(INT, at + 20, length);
        return at + 24;
    }

    static int writeDone(MemorySegment h, long id, byte status) {
        int at = start(h, WRITE_DONE, 8 + 1, 0);
        h.set(LONG, at, id);
        h.set(ValueLayout.JAVA_BYTE, at + 8, status);
        return at + 9;
    }

    static int readDone(MemorySegment h, long id, byte status, long payload) {
        int at = start(h, READ_DONE, 8 + 1, payload);
        h.set(LONG, at, id);
        h.set(ValueLayout.JAVA_BYTE, at + 8, status);
        return at + 9;
    }

    static int close(MemorySegment h) {
        return start(h, CLOSE, 0, 0);
    }

    /** Length field and type; returns where the type's fields start. */
    private static int start(MemorySegment h, byte type, int fields, long payload) {
        long body = 1 + fields + payload;
        if (body > Integer.MAX_VALUE - LENGTH_FIELD) {
            throw new ChannelException(ChannelError.LOCAL_LENGTH, payload + " bytes do not fit one frame");
        }
        h.set(INT, 0, (int) body);
        h.set(ValueLayout.JAVA_BYTE, LENGTH_FIELD, type);
        return LENGTH_FIELD + 1;
    }
}
