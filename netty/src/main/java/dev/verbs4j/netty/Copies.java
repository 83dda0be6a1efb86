package dev.verbs4j.netty;

import io.netty.buffer.ByteBuf;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * Copies from the channel layer's memory into Netty's buffers without allocating: straight into
 * a heap buffer's array or a direct buffer's address, else through the buffer's internal NIO
 * view and a view of the source made once per source segment.
 */
final class Copies {
    /** All of the address space, to copy to a direct buffer's address without a segment per copy. */
    private static final MemorySegment EVERYWHERE = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private MemorySegment viewed;
    private ByteBuffer view;

    /** Appends {@code [offset, offset + length)} of {@code source} to {@code target} (it has the room). */
    void append(MemorySegment source, long offset, int length, ByteBuf target) {
        int at = target.writerIndex();
        if (target.hasArray()) {
            MemorySegment.copy(source, ValueLayout.JAVA_BYTE, offset, target.array(), target.arrayOffset() + at, length);
        } else if (target.hasMemoryAddress()) {
            MemorySegment.copy(source, offset, EVERYWHERE, target.memoryAddress() + at, length);
        } else if (target.nioBufferCount() == 1) {
            ByteBuffer into = target.internalNioBuffer(at, length);
            into.put(viewOf(source, offset, length));
        } else {
            target.setBytes(at, source.asSlice(offset, length).asByteBuffer());
        }
        target.writerIndex(at + length);
    }

    /** {@code [offset, offset + length)} of {@code source} as a reused ByteBuffer. */
    private ByteBuffer viewOf(MemorySegment source, long offset, int length) {
        if (source != viewed) {
            view = source.asByteBuffer();
            viewed = source;
        }
        view.limit((int) offset + length).position((int) offset);
        return view;
    }
}
