package dev.verbs4j.nvmf.types;

/**
 * What Identify Controller reports (NVMe base spec, Identify Controller data structure; fabrics
 * fields from the NVMe over Fabrics spec).
 *
 * @param vendorId          PCI vendor id (VID), 0 on the Linux target
 * @param serial            SN
 * @param model             MN
 * @param firmware          FR
 * @param mdts              maximum data transfer size as a power of two of the minimum page size, 0 = no limit
 * @param controllerId      CNTLID
 * @param version           VER (e.g. 0x00010300 for 1.3)
 * @param keepAliveGranularity KAS, in 100 ms units
 * @param maxCommands       MAXCMD
 * @param namespaceCount    NN
 * @param sglSupport        SGLS
 * @param subsystemNqn      SUBNQN
 * @param ioCapsuleSize     IOCCSZ in bytes (SQE plus the in-capsule data the target accepts on I/O queues)
 * @param ioResponseSize    IORCSZ in bytes
 * @param inCapsuleOffset   ICDOFF in 16-byte units
 * @param maxSglDescriptors MSDBD
 *
 * <p>An immutable value: it owns nothing and may be shared between threads.
 */
public record ControllerIdentity(int vendorId, String serial, String model, String firmware, int mdts,
                                 int controllerId, int version, int keepAliveGranularity, int maxCommands,
                                 long namespaceCount, int sglSupport, String subsystemNqn, int ioCapsuleSize,
                                 int ioResponseSize, int inCapsuleOffset, int maxSglDescriptors) {

    /**
     * In-capsule data bytes an I/O command may carry.
     *
     * @return IOCCSZ minus the 64-byte SQE, at least 0
     */
    public int inCapsuleDataSize() {
        return Math.max(0, ioCapsuleSize - 64);
    }

    /**
     * The largest data transfer of one command (MDTS) in bytes.
     *
     * @param minPageSize the controller's minimum memory page size in bytes (CAP.MPSMIN)
     * @return the limit in bytes, or 0 for no limit
     */
    public long maxTransferBytes(long minPageSize) {
        return mdts == 0 ? 0 : minPageSize << mdts;
    }
}
