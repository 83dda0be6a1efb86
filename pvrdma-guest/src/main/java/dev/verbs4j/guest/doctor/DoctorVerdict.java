package dev.verbs4j.guest.doctor;

/**
 * Which transport a channel from this guest would use, and why.
 *
 * @param transport "rdma" or "tcp"
 * @param device    rdma: the device; tcp: ""
 * @param port      rdma: the port; tcp: 0
 * @param gidIndex  rdma: the GID index; tcp: -1
 * @param gidType   rdma: "RoCE v2", "IB", ...; tcp: ""
 * @param gid       rdma: the GID as an address; tcp: ""
 * @param reason    why this transport
 */
public record DoctorVerdict(String transport, String device, int port, int gidIndex, String gidType, String gid,
        String reason) {
    public static final String RDMA = "rdma";
    public static final String TCP = "tcp";

    static DoctorVerdict rdma(String device, int port, int gidIndex, String gidType, String gid, String reason) {
        return new DoctorVerdict(RDMA, device, port, gidIndex, gidType, gid, reason);
    }

    static DoctorVerdict tcp(String reason) {
        return new DoctorVerdict(TCP, "", 0, -1, "", "", reason);
    }

    /**
     * Whether channels will use RDMA here.
     *
     * @return true when {@link #transport()} is {@link #RDMA}
     */
    public boolean isRdma() {
        return RDMA.equals(transport);
    }

    /**
     * The verdict in one line.
     *
     * @return "transport: rdma (rxe0, GID index 1, RoCE v2)" or "transport: tcp (reason: ...)"
     */
    public String line() {
        return isRdma() ? "transport: rdma (" + device + ", GID index " + gidIndex + ", " + gidType + ")"
                : "transport: tcp (reason: " + reason + ")";
    }
}
