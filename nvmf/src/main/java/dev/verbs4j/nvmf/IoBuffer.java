package dev.verbs4j.nvmf;

import dev.verbs4j.verbs.MemoryRegion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * Memory registered with a controller's protection domain for the target to read (writes) and
 * write (reads) directly: the data of every I/O comes from or lands in one of these, without a copy.
 * Get one from {@link NvmfController#allocateBuffer}; close it before the controller.
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

    public MemorySegment segment() {
        return segment;
    }

    public long size() {
        return segment.byteSize();
    }

    long address() {
        return mr.address();
    }

    int lkey() {
        return mr.lkey();
    }

    int rkey() {
        return mr.rkey();
    }

    void check(long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > segment.byteSize()) {
            throw new IndexOutOfBoundsException("bytes " + offset + ".." + (offset + length) + " outside this "
                    + segment.byteSize() + "-byte buffer");
        }
    }

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
