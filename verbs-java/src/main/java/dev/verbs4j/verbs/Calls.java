package dev.verbs4j.verbs;

import java.lang.foreign.MemorySegment;

/** The two error conventions of rdma-core, turned into exceptions. */
final class Calls {
    private Calls() {}

    /** For verbs that return NULL and set errno. */
    static MemorySegment checkPointer(MemorySegment result, MemorySegment errnoCapture,
                                      String verb, String what) {
        if (result == null || result.equals(MemorySegment.NULL)) {
            int errno = ErrnoCapture.read(errnoCapture);
            throw Hints.exception(what, verb, errno);
        }
        return result;
    }

    /**
     * For verbs that return 0 on success and either an errno value (most ibv_*) or -1 with errno
     * set (rdma_* and some ibv_*).
     */
    static void checkStatus(int rc, MemorySegment errnoCapture, String verb, String what) {
        if (rc != 0) {
            int errno = rc > 0 ? rc : ErrnoCapture.read(errnoCapture);
            throw Hints.exception(what, verb, errno);
        }
    }

    /** Wraps the Throwable that MethodHandle.invokeExact declares. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
