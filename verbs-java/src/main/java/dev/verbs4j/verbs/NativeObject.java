package dev.verbs4j.verbs;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Base of every verbs object: owns one native pointer, refuses use after close, and refuses to
 * close while objects created from it are still open (see the package documentation).
 */
abstract class NativeObject implements AutoCloseable {
    private final String kind;
    private final NativeObject parent;
    private final AtomicInteger openChildren = new AtomicInteger();
    private volatile MemorySegment handle;
    /**
     * handle's address, 0 once closed: the data path's pointer and closed check in one field
     * read. {@code handle().address()} is an interface call on the segment, which C1 compiles as
     * a real dispatch on every post and poll.
     */
    private volatile long nativeAddress;

    NativeObject(String kind, MemorySegment handle, NativeObject parent) {
        this.kind = kind;
        this.handle = handle;
        this.nativeAddress = handle.address();
        this.parent = parent;
        if (parent != null) {
            parent.openChildren.incrementAndGet();
        }
    }

    /** The native pointer; throws if this object is closed. */
    final MemorySegment handle() {
        MemorySegment h = handle;
        if (h == null) {
            throw closed();
        }
        return h;
    }

    /** The native pointer as a plain address (see {@link #nativeAddress}); throws if this object is closed. */
    final long nativeAddress() {
        long address = nativeAddress;
        if (address == 0) {
            throw closed();
        }
        return address;
    }

    private IllegalStateException closed() {
        return new IllegalStateException(kind + " is closed");
    }

    public final boolean isClosed() {
        return handle == null;
    }

    @Override
    public final synchronized void close() {
        MemorySegment h = handle;
        if (h == null) {
            return;
        }
        int children = openChildren.get();
        if (children > 0) {
            throw new IllegalStateException("cannot close " + kind + ": " + children
                    + " object(s) created from it are still open; close them first");
        }
        destroy(h);
        nativeAddress = 0;
        handle = null;
        if (parent != null) {
            parent.openChildren.decrementAndGet();
        }
    }

    /** Releases the native object; throws VerbsException when the verb fails (nothing is lost). */
    abstract void destroy(MemorySegment handle);

    final String kind() {
        return kind;
    }
}
