package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Recognisable test payloads: byte i of pattern s is (s * 31 + i) & 0xff. */
final class ChannelTestBytes {
    private ChannelTestBytes() {}

    static MemorySegment pattern(int seed, int length) {
        byte[] b = new byte[length];
        fill(MemorySegment.ofArray(b), seed);
        return MemorySegment.ofArray(b);
    }

    static void fill(MemorySegment s, int seed) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (seed * 31 + i));
        }
    }

    /** Index of the first byte that breaks pattern {@code seed}, or -1. */
    static long mismatch(MemorySegment s, int seed) {
        for (long i = 0; i < s.byteSize(); i++) {
            if (s.get(ValueLayout.JAVA_BYTE, i) != (byte) (seed * 31 + i)) {
                return i;
            }
        }
        return -1;
    }
}
