package dev.verbs4j.nvmf.wire;

import java.lang.foreign.MemorySegment;

/**
 * The 16-byte SGL descriptors the RDMA transport uses (NVMe base spec "SGL Descriptor", NVMe/RDMA
 * binding): the identifier byte 15 holds the type in bits 7:4 and the sub type in bits 3:0.
 */
public final class Sgl {
    public static final int SIZE = 16;
    /** Keyed SGL Data Block (type 4), sub type 0 = address: address 0-7, length 8-10 (24 bits), key 11-14. */
    public static final int KEYED_DATA_BLOCK = 0x40;
    /** SGL Data Block (type 0), sub type 1 = offset into the capsule's in-capsule data: offset 0-7, length 8-11. */
    public static final int IN_CAPSULE_DATA = 0x01;
    public static final int MAX_KEYED_LENGTH = (1 << 24) - 1;

    private Sgl() {
    }

    public static void keyed(MemorySegment s, long at, long address, int length, int rkey) {
        if (length < 0 || length > MAX_KEYED_LENGTH) {
            throw new IllegalArgumentException("a keyed SGL data block holds up to 16 MiB - 1, got " + length);
        }
        Le.put64(s, at, address);
        Le.put8(s, at + 8, length);
        Le.put8(s, at + 9, length >>> 8);
        Le.put8(s, at + 10, length >>> 16);
        Le.put32(s, at + 11, rkey);
        Le.put8(s, at + 15, KEYED_DATA_BLOCK);
    }

    /** No data: a keyed data block of length 0, as the target expects for data-less commands. */
    public static void none(MemorySegment s, long at) {
        keyed(s, at, 0, 0, 0);
    }

    public static void inCapsule(MemorySegment s, long at, long offset, int length) {
        Le.put64(s, at, offset);
        Le.put32(s, at + 8, length);
        Le.put16(s, at + 12, 0);
        Le.put8(s, at + 14, 0);
        Le.put8(s, at + 15, IN_CAPSULE_DATA);
    }

    public static int keyedLength(MemorySegment s, long at) {
        return Le.u8(s, at + 8) | Le.u8(s, at + 9) << 8 | Le.u8(s, at + 10) << 16;
    }
}
