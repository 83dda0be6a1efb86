package dev.verbs4j.nvmf.wire;

/** Admin and NVM command set opcodes, and the fields of the few commands this host issues. */
public final class Opcodes {
    // admin
    public static final int ADMIN_GET_LOG_PAGE = 0x02;
    public static final int ADMIN_IDENTIFY = 0x06;
    public static final int ADMIN_KEEP_ALIVE = 0x18;
    // NVM command set
    public static final int NVM_FLUSH = 0x00;
    public static final int NVM_WRITE = 0x01;
    public static final int NVM_READ = 0x02;
    public static final int NVM_WRITE_ZEROES = 0x08;

    /** Identify CDW10 CNS: the namespace and the controller data structures (4096 bytes each). */
    public static final int CNS_NAMESPACE = 0x00;
    public static final int CNS_CONTROLLER = 0x01;
    public static final int IDENTIFY_SIZE = 4096;

    /** The discovery log page and its well-known subsystem. */
    public static final int LOG_DISCOVERY = 0x70;
    public static final String DISCOVERY_NQN = "nqn.2014-08.org.nvmexpress.discovery";

    private Opcodes() {
    }

    /** Get Log Page CDW10: LID 7:0, NUMDL 31:16 (number of dwords, 0's based; NUMDU in CDW11). */
    public static int getLogPageCdw10(int logId, int bytes) {
        int numd = bytes / 4 - 1;
        return logId | (numd & 0xFFFF) << 16;
    }

    public static int getLogPageCdw11(int bytes) {
        return ((bytes / 4 - 1) >>> 16) & 0xFFFF;
    }
}
