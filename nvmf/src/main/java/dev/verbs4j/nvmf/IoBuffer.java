package dev.verbs4j.nvmf;

import dev.verbs4j.verbs.MemoryRegion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * Memory registered with a controller's protection domain for the target to read (writes) and
 * write (reads) directly: the data of every I/O comes from or lands in one of these, without a copy.
 * Get one from {@link NvmfController#allocateBuffer}.
 *
 * <p>Ownership: the caller owns it and closes it, after the last I/O that uses it has completed;
 * closing the controller closes every buffer still open. {@link #close()} may be called from any
 * thread and more than once. The memory itself is shared ({@link java.lang.foreign.Arena#ofShared()}):
 * any thread may read and write it, but not while an I/O on those bytes is in flight.
 */
public final class IoBuffer implements AutoCloseable {
    private final Arena arena;
    private final MemorySegment segment;
    private final MemoryRegion mr;
    private final Consumer<IoBuffer> onClose;
    private boolean closed;

    IoBuffer(Arena arena, MemorySegment segment, MemoryRegion mr, Consumer<IoBuffer> onClose) {
        this.arena = arena;
        this.segment = segment;
        this.mr = mr;
        this.onClose = onClose;
    }

    /**
     * The memory, to fill before a write and read after a read.
     *
     * @return the registered segment, valid until this buffer is closed
     */
    public MemorySegment segment() {
        return segment;
    }

    /**
     * The buffer's length.
     *
     * @return bytes
     */
    public long size() {
        return segment.byteSize();
    }

    MemoryRegion region() {
        return mr;
    }

    void check(long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > segment.byteSize()) {
            throw new IndexOutOfBoundsException("bytes " + offset + ".." + (offset + length) + " outside this "
                    + segment.byteSize() + "-byte buffer");
        }
    }

    /** Deregisters and frees the memory; the segment is unusable afterwards. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        mr.close();
        arena.close();
        onClose.accept(this);
    }
}
