package dev.verbs4j.nvmf.wire;

/** Controller properties (NVMe base spec "Controller Registers") as Property Get/Set address them. */
public final class Properties {
    /** Controller Capabilities, 8 bytes: MQES 15:0 (0's based), TO 31:24 (500 ms units), MPSMIN 51:48. */
    public static final int CAP = 0x00;
    public static final int VS = 0x08;
    /** Controller Configuration: EN 0, CSS 6:4, MPS 10:7, AMS 13:11, SHN 15:14, IOSQES 19:16, IOCQES 23:20. */
    public static final int CC = 0x14;
    /** Controller Status: RDY 0, CFS 1, SHST 3:2. */
    public static final int CSTS = 0x1C;

    public static final int CC_ENABLE = 1;
    /** IOSQES = 6 (64-byte SQEs), IOCQES = 4 (16-byte CQEs), NVM command set, 4 KiB pages, round robin. */
    public static final int CC_QUEUE_ENTRY_SIZES = 6 << 16 | 4 << 20;
    public static final int CC_SHUTDOWN_NORMAL = 1 << 14;
    public static final int CSTS_READY = 1;
    public static final int CSTS_FATAL = 1 << 1;
    public static final int CSTS_SHUTDOWN_MASK = 3 << 2;
    public static final int CSTS_SHUTDOWN_COMPLETE = 2 << 2;

    private Properties() {
    }

    /** CAP.MQES + 1: the largest queue the controller takes. */
    public static int maxQueueEntries(long cap) {
        return (int) (cap & 0xFFFF) + 1;
    }

    /** CAP.TO: worst-case time to become ready, in milliseconds. */
    public static long readyTimeoutMillis(long cap) {
        return ((cap >>> 24) & 0xFF) * 500L;
    }

    /** CAP.MPSMIN as bytes (2 ^ (12 + MPSMIN)): the unit of MDTS. */
    public static long minPageSize(long cap) {
        return 1L << (12 + ((cap >>> 48) & 0xF));
    }
}
