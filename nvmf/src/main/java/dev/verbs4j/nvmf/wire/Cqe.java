package dev.verbs4j.nvmf.wire;

import java.lang.foreign.MemorySegment;

/**
 * The 16-byte completion queue entry: DW0 at 0, DW1 at 4, SQ head at 8, SQ id at 10, command id
 * at 12, status at 14 (bit 0 phase, bits 8:1 status code, 11:9 status code type, 13:12 CRD, 14 M,
 * 15 DNR). {@link #status} gives the status field without the phase bit: (DNR, M, CRD, SCT, SC).
 */
public final class Cqe {
    public static final int SIZE = 16;
    public static final int DW0 = 0;
    public static final int DW1 = 4;
    public static final int SQHD = 8;
    public static final int SQID = 10;
    public static final int CID = 12;
    public static final int STATUS = 14;

    private Cqe() {
    }

    public static long result(MemorySegment s, long at) {
        return Le.u64(s, at + DW0);
    }

    public static int cid(MemorySegment s, long at) {
        return Le.u16(s, at + CID);
    }

    /** The status field shifted right by one (drops the phase tag): 0 = success. */
    public static int status(MemorySegment s, long at) {
        return Le.u16(s, at + STATUS) >>> 1;
    }

    public static int statusCode(int status) {
        return status & 0xFF;
    }

    public static int statusCodeType(int status) {
        return (status >>> 8) & 0x7;
    }

    public static boolean doNotRetry(int status) {
        return (status & 0x4000) != 0;
    }
}
