package dev.verbs4j.verbs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Small helpers for copying what librdmacm hands out before it is acknowledged and freed. */
final class CmNative {
    private CmNative() {}

    /** Copies {@code length} bytes from a native pointer; empty for NULL. */
    static byte[] copyBytes(MemorySegment pointer, int length) {
        if (pointer == null || pointer.equals(MemorySegment.NULL) || length <= 0) {
            return new byte[0];
        }
        return pointer.reinterpret(length).toArray(ValueLayout.JAVA_BYTE);
    }

    static boolean isNull(MemorySegment pointer) {
        return pointer == null || pointer.equals(MemorySegment.NULL);
    }
}
