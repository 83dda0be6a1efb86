package dev.verbs4j.guest.bootstrap;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * What one side states in the bootstrap exchange: whether it can run RDMA and on what (device,
 * port, GID), its memlock headroom, or the gap that stops it, with details for the log.
 *
 * @param gap             {@link CapabilitiesGap#NONE} when this side can do RDMA
 * @param detail          more words on the gap or the device ("rxe0 port 1: PORT_DOWN")
 * @param memlockHeadroom bytes this process may still lock, or -1 for unlimited
 */
record Capabilities(CapabilitiesGap gap, String detail, String device, int port, int gidIndex,
                           String gidType, long memlockHeadroom) {
    private static final int TEXT_MAX = 200;

    public static Capabilities usable(String device, int port, int gidIndex, String gidType, long memlockHeadroom) {
        return new Capabilities(CapabilitiesGap.NONE, "", device, port, gidIndex, gidType, memlockHeadroom);
    }

    public static Capabilities lacking(CapabilitiesGap gap, String detail) {
        return new Capabilities(gap, detail == null ? "" : detail, "", 0, -1, "", 0);
    }

    public boolean canRdma() {
        return gap == CapabilitiesGap.NONE;
    }

    /** The gap as this side would put it, with its detail: "no RoCE v2 GID (rxe0 port 1)". */
    public String reasonHere() {
        return gap.here() + (detail.isEmpty() ? "" : " (" + detail + ")");
    }

    public String reasonAtPeer() {
        return gap.atPeer() + (detail.isEmpty() ? "" : " (" + detail + ")");
    }

    void writeTo(DataOutputStream out) throws IOException {
        out.writeUTF(gap.name());
        out.writeUTF(detail);
        out.writeUTF(device);
        out.writeInt(port);
        out.writeInt(gidIndex);
        out.writeUTF(gidType);
        out.writeLong(memlockHeadroom);
    }

    static Capabilities readFrom(DataInputStream in) throws IOException {
        String gapName = in.readUTF();
        CapabilitiesGap gap;
        try {
            gap = CapabilitiesGap.valueOf(gapName);
        } catch (IllegalArgumentException e) {
            gap = CapabilitiesGap.DEVICE_ERROR; // a newer peer's reason: still not usable
        }
        // the peer's words reach this side's log and TransportChoice.reason(): printable and short
        return new Capabilities(gap, PeerText.printable(in.readUTF(), TEXT_MAX), PeerText.printable(in.readUTF(),
                TEXT_MAX), in.readInt(), in.readInt(), PeerText.printable(in.readUTF(), TEXT_MAX), in.readLong());
    }

    @Override
    public String toString() {
        return canRdma() ? "RDMA on " + device + " port " + port + ", GID index " + gidIndex + " (" + gidType + ")"
                + ", memlock headroom " + (memlockHeadroom < 0 ? "unlimited" : memlockHeadroom + " bytes")
                : "no RDMA: " + reasonHere();
    }
}
