package dev.verbs4j.guest;

/**
 * The transport a channel runs on and why. For RDMA also the device, GID index and GID type in
 * use; for TCP the reason RDMA was not used; for shared memory why it was chosen.
 *
 * @param kind     the transport
 * @param reason   why it was chosen (for TCP, why not RDMA)
 * @param device   the RDMA device, empty for TCP
 * @param gidIndex the GID index in use, -1 for TCP
 * @param gidType  the GID type ("RoCE v2"), empty for TCP
 */
public record TransportChoice(TransportKind kind, String reason, String device, int gidIndex, String gidType) {

    /**
     * An RDMA choice.
     *
     * @param reason   why RDMA
     * @param device   the device
     * @param gidIndex the GID index
     * @param gidType  the GID type
     * @return the value
     */
    public static TransportChoice rdma(String reason, String device, int gidIndex, String gidType) {
        return new TransportChoice(TransportKind.RDMA, reason, device, gidIndex, gidType);
    }

    /**
     * A TCP choice.
     *
     * @param reason why not RDMA
     * @return the value
     */
    public static TransportChoice tcp(String reason) {
        return new TransportChoice(TransportKind.TCP, reason, "", -1, "");
    }

    /**
     * A shared-memory choice.
     *
     * @param reason why shared memory
     * @return the value
     */
    public static TransportChoice shm(String reason) {
        return new TransportChoice(TransportKind.SHM, reason, "", -1, "");
    }

    /**
     * Whether RDMA carries the channel.
     *
     * @return true for {@link TransportKind#RDMA}
     */
    public boolean isRdma() {
        return kind == TransportKind.RDMA;
    }

    /**
     * The choice in one line.
     *
     * @return "rdma (rxe0, GID index 1, RoCE v2)", "tcp (reason: peer has no RDMA device)" or
     *         "shm (reason: forced by configuration)"
     */
    public String describe() {
        return switch (kind) {
            case RDMA -> "rdma (" + device + ", GID index " + gidIndex + ", " + gidType + ")";
            case TCP -> "tcp (reason: " + reason + ")";
            case SHM -> "shm (reason: " + reason + ")";
        };
    }

    @Override
    public String toString() {
        return describe();
    }
}
