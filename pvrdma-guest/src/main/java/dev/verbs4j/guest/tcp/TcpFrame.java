package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The TCP transport's frames, the one place that knows their layout: it writes each frame's
 * header and reads frames back. A frame is a 4-byte length (of its body: what follows), then the
 * body: a 1-byte type and the type's fields, big-endian. A message is delivered only once its
 * whole frame has arrived.
 *
 * <pre>
 * type        its fields, each at its offset in the body (first..last byte)
 * MESSAGE     type(0) flags(1: bit 0 = immediate present) immediate(2..5) payload(6..)
 * WRITE       type(0) id(1..8) address(9..16) key(17..20) payload(21..)
 * READ        type(0) id(1..8) address(9..16) key(17..20) length(21..24)
 * WRITE_DONE  type(0) id(1..8) status(9)
 * READ_DONE   type(0) id(1..8) status(9) payload(10..)
 * CLOSE       type(0)
 * HOLD        type(0)      the sender stopped reading: its peer's writes stall until RESUME
 * RESUME      type(0)
 * </pre>
 *
 * <p>Writing: each method writes a frame's header (everything before the payload) into the
 * sender's reusable header memory and returns its length; the payload is written from its own
 * memory behind it with one gathering write, so neither is allocated nor copied per frame.
 *
 * <p>Reading: {@link #decode} hands a whole frame's fields to a {@link Handler}, the payload as a
 * place in the read buffer, so reading allocates nothing either. The accessors below read a
 * header in place, for a reader that looks at a frame before it is whole.
 *
 * <p>Stateless: callers guard the memory they pass.
 */
final class TcpFrame {
    static final byte MESSAGE = 1, WRITE = 2, READ = 3, WRITE_DONE = 4, READ_DONE = 5, CLOSE = 6, HOLD = 7, RESUME = 8;
    static final byte STATUS_OK = 0, STATUS_REMOTE_ACCESS = 1;
    static final int LENGTH_FIELD = 4;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    // where each field is in a frame's body (from its type byte), as the table above draws it
    private static final int TYPE_AT = 0;
    private static final int FLAGS_AT = 1, IMMEDIATE_AT = 2, MESSAGE_PAYLOAD_AT = 6;
    private static final int ID_AT = 1, ADDRESS_AT = 9, KEY_AT = 17, WRITE_PAYLOAD_AT = 21, READ_LENGTH_AT = 21,
            READ_BODY = 25;
    private static final int STATUS_AT = 9, DONE_BODY = 10;
    private static final int IMMEDIATE_PRESENT = 1;

    /** A MESSAGE's body before its payload (type, flags, immediate), and its whole header. */
    static final int MESSAGE_FIELDS = MESSAGE_PAYLOAD_AT, MESSAGE_HEADER = LENGTH_FIELD + MESSAGE_FIELDS;
    /** Room for the longest header (READ: 4 + 25). */
    static final int MAX_HEADER = 32;

    /** What a reader does with each whole frame; the payload is {@code [payloadAt, payloadAt + length)} of {@code in}, during the call. */
    interface Handler {
        void message(MemorySegment in, long payloadAt, int length, boolean hasImmediate, int immediate);

        void writeRequest(long id, long address, int key, MemorySegment in, long payloadAt, int length);

        void readRequest(long id, long address, int key, int length);

        void writeDone(long id, byte status);

        void readDone(long id, byte status, MemorySegment in, long payloadAt, int length);

        void peerClosed();

        /** The peer stopped reading (true: its window closes on purpose) or reads again (false). */
        void peerHolds(boolean holding);

        /** What came is no frame of ours: an unknown type, or a body too short for its type's fields. */
        void malformed(String why);
    }

    private TcpFrame() {}

    // ---- writing ----------------------------------------------------------------------------

    static int message(MemorySegment h, long payload, boolean hasImmediate, int immediate) {
        start(h, MESSAGE, MESSAGE_PAYLOAD_AT, payload);
        h.set(ValueLayout.JAVA_BYTE, LENGTH_FIELD + FLAGS_AT, (byte) (hasImmediate ? IMMEDIATE_PRESENT : 0));
        h.set(INT, LENGTH_FIELD + IMMEDIATE_AT, immediate);
        return LENGTH_FIELD + MESSAGE_PAYLOAD_AT;
    }

    static int write(MemorySegment h, long id, long address, int key, long payload) {
        start(h, WRITE, WRITE_PAYLOAD_AT, payload);
        access(h, id, address, key);
        return LENGTH_FIELD + WRITE_PAYLOAD_AT;
    }

    static int read(MemorySegment h, long id, long address, int key, int length) {
        start(h, READ, READ_BODY, 0);
        access(h, id, address, key);
        h.set(INT, LENGTH_FIELD + READ_LENGTH_AT, length);
        return LENGTH_FIELD + READ_BODY;
    }

    static int writeDone(MemorySegment h, long id, byte status) {
        return done(h, WRITE_DONE, id, status, 0);
    }

    static int readDone(MemorySegment h, long id, byte status, long payload) {
        return done(h, READ_DONE, id, status, payload);
    }

    static int close(MemorySegment h) {
        return typeOnly(h, CLOSE);
    }

    /** HOLD ({@code holding}) or RESUME. */
    static int hold(MemorySegment h, boolean holding) {
        return typeOnly(h, holding ? HOLD : RESUME);
    }

    private static int typeOnly(MemorySegment h, byte type) {
        start(h, type, TYPE_AT + 1, 0);
        return LENGTH_FIELD + TYPE_AT + 1;
    }

    /** The length field and the type, for a body of {@code fields} bytes (type included) and the payload. */
    private static void start(MemorySegment h, byte type, int fields, long payload) {
        long body = fields + payload;
        if (body > Integer.MAX_VALUE - LENGTH_FIELD) {
            throw new ChannelException(ChannelError.LOCAL_LENGTH, payload + " bytes do not fit one frame");
        }
        h.set(INT, 0, (int) body);
        h.set(ValueLayout.JAVA_BYTE, LENGTH_FIELD + TYPE_AT, type);
    }

    private static void access(MemorySegment h, long id, long address, int key) {
        h.set(LONG, LENGTH_FIELD + ID_AT, id);
        h.set(LONG, LENGTH_FIELD + ADDRESS_AT, address);
        h.set(INT, LENGTH_FIELD + KEY_AT, key);
    }

    private static int done(MemorySegment h, byte type, long id, byte status, long payload) {
        start(h, type, DONE_BODY, payload);
        h.set(LONG, LENGTH_FIELD + ID_AT, id);
        h.set(ValueLayout.JAVA_BYTE, LENGTH_FIELD + STATUS_AT, status);
        return LENGTH_FIELD + DONE_BODY;
    }

    // ---- reading ----------------------------------------------------------------------------

    /** The length field of the frame at {@code frameAt}: how many body bytes follow it. */
    static int bodyLength(MemorySegment in, long frameAt) {
        return in.get(INT, frameAt);
    }

    /** The type of the frame whose body starts at {@code bodyAt}. */
    static byte type(MemorySegment in, long bodyAt) {
        return in.get(ValueLayout.JAVA_BYTE, bodyAt + TYPE_AT);
    }

    /** Whether the MESSAGE whose body starts at {@code bodyAt} carries an immediate. */
    static boolean hasImmediate(MemorySegment in, long bodyAt) {
        return (in.get(ValueLayout.JAVA_BYTE, bodyAt + FLAGS_AT) & IMMEDIATE_PRESENT) != 0;
    }

    /** The immediate of the MESSAGE whose body starts at {@code bodyAt}. */
    static int immediate(MemorySegment in, long bodyAt) {
        return in.get(INT, bodyAt + IMMEDIATE_AT);
    }

    /**
     * Hands the whole frame whose body is {@code [bodyAt, bodyAt + length)} of {@code in} to
     * {@code to}. A body shorter than its type's fields (or longer, for the types without a
     * payload) is malformed: its fields are never read past its end.
     */
    static void decode(MemorySegment in, long bodyAt, int length, Handler to) {
        byte type = type(in, bodyAt);
        int fields = fields(type);
        if (fields < 0) {
            to.malformed("unknown frame type " + type);
            return;
        }
        if (length < fields || (!hasPayload(type) && length != fields)) {
            to.malformed("a frame of type " + type + " with a body of " + length + " bytes (its fields take "
                    + fields + ")");
            return;
        }
        switch (type) {
            case MESSAGE -> to.message(in, bodyAt + MESSAGE_PAYLOAD_AT, length - MESSAGE_PAYLOAD_AT,
                    hasImmediate(in, bodyAt), immediate(in, bodyAt));
            case WRITE -> to.writeRequest(id(in, bodyAt), in.get(LONG, bodyAt + ADDRESS_AT), in.get(INT, bodyAt + KEY_AT),
                    in, bodyAt + WRITE_PAYLOAD_AT, length - WRITE_PAYLOAD_AT);
            case READ -> to.readRequest(id(in, bodyAt), in.get(LONG, bodyAt + ADDRESS_AT), in.get(INT, bodyAt + KEY_AT),
                    in.get(INT, bodyAt + READ_LENGTH_AT));
            case WRITE_DONE -> to.writeDone(id(in, bodyAt), status(in, bodyAt));
            case READ_DONE -> to.readDone(id(in, bodyAt), status(in, bodyAt), in, bodyAt + DONE_BODY,
                    length - DONE_BODY);
            case HOLD, RESUME -> to.peerHolds(type == HOLD);
            default -> to.peerClosed(); // CLOSE: fields() knows no other type
        }
    }

    /** The bytes of a body before its payload (the type byte included), or -1 for an unknown type. */
    static int fields(byte type) {
        return switch (type) {
            case MESSAGE -> MESSAGE_PAYLOAD_AT;
            case WRITE -> WRITE_PAYLOAD_AT;
            case READ -> READ_BODY;
            case WRITE_DONE, READ_DONE -> DONE_BODY;
            case CLOSE, HOLD, RESUME -> TYPE_AT + 1;
            default -> -1;
        };
    }

    static boolean hasPayload(byte type) {
        return type == MESSAGE || type == WRITE || type == READ_DONE;
    }

    private static long id(MemorySegment in, long bodyAt) {
        return in.get(LONG, bodyAt + ID_AT);
    }

    private static byte status(MemorySegment in, long bodyAt) {
        return in.get(ValueLayout.JAVA_BYTE, bodyAt + STATUS_AT);
    }
}
