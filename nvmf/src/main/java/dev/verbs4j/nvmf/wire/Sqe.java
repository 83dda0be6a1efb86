package dev.verbs4j.nvmf.wire;

import java.lang.foreign.MemorySegment;

/**
 * The 64-byte submission queue entry (NVMe base spec, "Common Command Format"): opcode at 0,
 * flags at 1 (PSDT in bits 7:6), command id at 2, NSID at 4, the data pointer (SGL 1) at 24,
 * command dwords 10-15 at 40-63. Writes in place into a capsule slot.
 */
public final class Sqe {
    public static final int SIZE = 64;
    public static final int OPCODE = 0;
    public static final int FLAGS = 1;
    public static final int CID = 2;
    public static final int NSID = 4;
    public static final int DPTR = 24;
    public static final int CDW10 = 40;
    public static final int CDW11 = 44;
    public static final int CDW12 = 48;
    public static final int CDW13 = 52;
    public static final int CDW14 = 56;
    public static final int CDW15 = 60;
    /** PSDT = 01b: the data pointer is an SGL whose metadata pointer is a single buffer; fabrics require it. */
    public static final int FLAG_SGL = 0x40;

    private Sqe() {
    }

    /** Zeroes the entry and writes opcode, SGL flag, command id and NSID. */
    public static void begin(MemorySegment s, long at, int opcode, int cid, int nsid) {
        for (int i = 0; i < SIZE; i += 8) {        // not asSlice().fill(): no segment object per command
            Le.put64(s, at + i, 0);
        }
        Le.put8(s, at + OPCODE, opcode);
        Le.put8(s, at + FLAGS, FLAG_SGL);
        Le.put16(s, at + CID, cid);
        Le.put32(s, at + NSID, nsid);
    }

    public static void cdw(MemorySegment s, long at, int offset, int value) {
        Le.put32(s, at + offset, value);
    }

    public static int cid(MemorySegment s, long at) {
        return Le.u16(s, at + CID);
    }

    /** Read / Write / Write Zeroes: SLBA in CDW10-11, NLB (0's based) in CDW12 bits 15:0. */
    public static void lbaRange(MemorySegment s, long at, long startLba, int blocks) {
        Le.put64(s, at + CDW10, startLba);
        Le.put32(s, at + CDW12, (blocks - 1) & 0xFFFF);
    }
}
