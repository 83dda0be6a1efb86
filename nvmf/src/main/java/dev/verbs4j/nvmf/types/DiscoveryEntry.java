package dev.verbs4j.nvmf.types;

/**
 * One record of the discovery log page (log 0x70): a subsystem and the port to reach it on.
 *
 * @param transportType   TRTYPE (1 = RDMA, 3 = TCP)
 * @param addressFamily   ADRFAM (1 = IPv4, 2 = IPv6)
 * @param subsystemType   SUBTYPE (1 = referral to a discovery service, 2 = NVM subsystem, 3 = this discovery controller)
 * @param requirements    TREQ
 * @param portId          PORTID
 * @param controllerId    CNTLID (0xFFFF = dynamic)
 * @param adminQueueSize  ASQSZ
 * @param serviceId       TRSVCID, e.g. "4420"
 * @param subsystemNqn    SUBNQN
 * @param address         TRADDR
 * @param rdmaQpType      TSAS.RDMA QPTYPE (1 = reliable connected)
 * @param rdmaProviderType TSAS.RDMA PRTYPE (1 = none/RoCE v1 ... 0 = not specified)
 * @param rdmaCms         TSAS.RDMA CMS (1 = rdma_cm)
 *
 * <p>An immutable value: it owns nothing and may be shared between threads.
 */
public record DiscoveryEntry(int transportType, int addressFamily, int subsystemType, int requirements,
                             int portId, int controllerId, int adminQueueSize, String serviceId,
                             String subsystemNqn, String address, int rdmaQpType, int rdmaProviderType,
                             int rdmaCms) {

    /**
     * TRTYPE as nvme-cli's {@code discover} prints it.
     *
     * @return "rdma", "fc", "tcp", "loop" or "unrecognized"
     */
    public String transportName() {
        return switch (transportType) {
            case 1 -> "rdma";
            case 2 -> "fc";
            case 3 -> "tcp";
            case 254 -> "loop";
            default -> "unrecognized";
        };
    }

    /**
     * SUBTYPE as nvme-cli's {@code discover} prints it.
     *
     * @return "discovery subsystem referral", "nvme subsystem", "current discovery subsystem" or "unrecognized"
     */
    public String subsystemTypeName() {
        return switch (subsystemType) {
            case 1 -> "discovery subsystem referral";
            case 2 -> "nvme subsystem";
            case 3 -> "current discovery subsystem";
            default -> "unrecognized";
        };
    }
}
