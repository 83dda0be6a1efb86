package dev.verbs4j.unix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Downcall handles to libc with errno captured, and the per-thread capture segment they write
 * it to (so a call allocates nothing, from whichever thread makes it).
 */
public final class Libc {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ThreadLocal<MemorySegment> CAPTURE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    private Libc() {}

    /** A libc function; its first argument is the errno capture segment ({@link #errno()}). */
    public static MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... more) {
        Linker.Option[] options = new Linker.Option[more.length + 1];
        options[0] = CAPTURE_ERRNO;
        System.arraycopy(more, 0, options, 1, more.length);
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /**
     * A libc function without errno: for the calls every wake-up of a completion loop makes.
     * Capturing errno costs an allocation per call wherever the JIT does not inline the JDK's
     * check of the capture segment (it slices it); such a call goes through this handle, and
     * only when it fails repeats through {@link #function}'s to learn why.
     */
    public static MethodHandle functionWithoutErrno(String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        return LINKER.downcallHandle(symbol, descriptor);
    }

    /** As {@link #function}, or null when libc lacks it (an older glibc): the caller does without. */
    public static MethodHandle functionIfPresent(String name, FunctionDescriptor descriptor) {
        return LINKER.defaultLookup().find(name).isPresent() ? function(name, descriptor) : null;
    }

    /** This thread's errno capture segment. */
    public static MemorySegment errno() {
        return CAPTURE.get();
    }

    /**
     * A capture segment of the caller's own, for calls it makes one thread at a time (under its
     * lock): no thread-local lookup per call, which costs most where the JIT inlines least (C1).
     */
    public static MemorySegment newCallState() {
        return Arena.ofAuto().allocate(CAPTURE_LAYOUT);
    }

    /** The errno a call captured into {@code state}. */
    public static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** The errno the last call on this thread captured. */
    public static int lastErrno() {
        return errno(CAPTURE.get());
    }

    /** Wraps the Throwable that MethodHandle.invokeExact declares. */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
