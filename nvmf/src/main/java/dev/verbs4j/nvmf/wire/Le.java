package dev.verbs4j.nvmf.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Little-endian, unaligned field access: every NVMe structure is little-endian on the wire. */
public final class Le {
    public static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Le() {
    }

    public static int u8(MemorySegment s, long at) {
        return Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, at));
    }

    public static int u16(MemorySegment s, long at) {
        return Short.toUnsignedInt(s.get(U16, at));
    }

    public static int u32(MemorySegment s, long at) {
        return s.get(U32, at);
    }

    public static long u64(MemorySegment s, long at) {
        return s.get(U64, at);
    }

    public static void put8(MemorySegment s, long at, int v) {
        s.set(ValueLayout.JAVA_BYTE, at, (byte) v);
    }

    public static void put16(MemorySegment s, long at, int v) {
        s.set(U16, at, (short) v);
    }

    public static void put32(MemorySegment s, long at, int v) {
        s.set(U32, at, v);
    }

    public static void put64(MemorySegment s, long at, long v) {
        s.set(U64, at, v);
    }

    /** An ASCII field padded with spaces or NULs (serial, model, NQN), trimmed. */
    public static String ascii(MemorySegment s, long at, int length) {
        byte[] b = s.asSlice(at, length).toArray(ValueLayout.JAVA_BYTE);
        int end = 0;
        for (int i = 0; i < b.length && b[i] != 0; i++) {
            end = i + 1;
        }
        return new String(b, 0, end, StandardCharsets.US_ASCII).strip();
    }

    /** Writes {@code text} NUL-padded into a field of {@code length} bytes (an NQN needs a NUL left over). */
    public static void putAscii(MemorySegment s, long at, int length, String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        if (b.length >= length) {
            throw new IllegalArgumentException("'" + text + "' does not fit a " + length + "-byte field");
        }
        s.asSlice(at, length).fill((byte) 0);
        MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, at, b.length);
    }
}
