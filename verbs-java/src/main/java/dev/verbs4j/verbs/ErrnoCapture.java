package dev.verbs4j.verbs;

import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/** The segment our verbs downcalls capture errno into ({@link NativeLibraries}), and reading it back. */
final class ErrnoCapture {
    static final StructLayout LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private ErrnoCapture() {}

    static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate(LAYOUT);
    }

    static int read(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }
}
