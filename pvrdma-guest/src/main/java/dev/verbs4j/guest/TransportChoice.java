package dev.verbs4j.guest;

/**
 * The transport a channel runs on and why. For RDMA also the device, GID index and GID type in
 * use; for TCP the reason RDMA was not used.
 */
public record TransportChoice(TransportKind kind, String reason, String device, int gidIndex, String gidType) {

    public static TransportChoice rdma(String reason, String device, int gidIndex, String gidType) {
        return new TransportChoice(TransportKind.RDMA, reason, device, gidIndex, gidType);
    }

    public static TransportChoice tcp(String reason) {
        return new TransportChoice(TransportKind.TCP, reason, "", -1, "");
    }

    public boolean isRdma() {
        return kind == TransportKind.RDMA;
    }

    /** "rdma (rxe0, GID index 1, RoCE v2)" or "tcp (reason: peer has no RDMA device)". */
    public String describe() {
        return kind == TransportKind.RDMA
                ? "rdma (" + device + ", GID index " + gidIndex + ", " + gidType + ")"
                : "tcp (reason: " + reason + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
