package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

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
 * <p>A frame is built as a header and, when it carries one, its payload as a buffer over the
 * payload's own memory: written together with one gathering write, the payload is not copied.
 */
final class TcpFrame {
    static final byte MESSAGE = 1, WRITE = 2, READ = 3, WRITE_DONE = 4, READ_DONE = 5, CLOSE = 6;
    static final byte STATUS_OK = 0, STATUS_REMOTE_ACCESS = 1;
    static final int LENGTH_FIELD = 4;

    private TcpFrame() {}

    static ByteBuffer[] message(MemorySegment payload, boolean hasImmediate, int immediate) {
        ByteBuffer b = start(MESSAGE, 1 + 4, payload.byteSize());
        b.put((byte) (hasImmediate ? 1 : 0)).putInt(immediate);
        return withPayload(b, payload);
    }

    static ByteBuffer[] write(long id, long address, int key, MemorySegment payload) {
        ByteBuffer b = start(WRITE, 8 + 8 + 4, payload.byteSize());
        b.putLong(id).putLong(address).putInt(key);
        return withPayload(b, payload);
    }

    static ByteBuffer[] read(long id, long address, int key, int length) {
        ByteBuffer b = start(READ, 8 + 8 + 4 + 4, 0);
        b.putLong(id).putLong(address).putInt(key).putInt(length);
        return new ByteBuffer[] {b.flip()};
    }

    static ByteBuffer[] writeDone(long id, byte status) {
        ByteBuffer b = start(WRITE_DONE, 8 + 1, 0);
        b.putLong(id).put(status);
        return new ByteBuffer[] {b.flip()};
    }

    static ByteBuffer[] readDone(long id, byte status, MemorySegment payload) {
        ByteBuffer b = start(READ_DONE, 8 + 1, payload.byteSize());
        b.putLong(id).put(status);
        return withPayload(b, payload);
    }

    static ByteBuffer[] close() {
        return new ByteBuffer[] {start(CLOSE, 0, 0).flip()};
    }

    /** The header: length field, type; the caller puts the type's fields. */
    private static ByteBuffer start(byte type, int fields, long payload) {
        long body = 1 + fields + payload;
        if (body > Integer.MAX_VALUE - LENGTH_FIELD) {
            throw new ChannelException(ChannelError.LOCAL_LENGTH, payload + " bytes do not fit one frame");
        }
        ByteBuffer b = ByteBuffer.allocate(LENGTH_FIELD + 1 + fields);
        return b.putInt((int) body).put(type);
    }

    private static ByteBuffer[] withPayload(ByteBuffer header, MemorySegment payload) {
        header.flip();
        return payload.byteSize() == 0 ? new ByteBuffer[] {header} : new ByteBuffer[] {header, view(payload)};
    }

    /** The payload's own memory as a buffer; a copy only for memory that cannot be seen as bytes (an int[]...). */
    private static ByteBuffer view(MemorySegment payload) {
        if (payload.isNative() || payload.heapBase().orElse(null) instanceof byte[]) {
            return payload.asByteBuffer();
        }
        return ByteBuffer.wrap(payload.toArray(JAVA_BYTE));
    }
}
