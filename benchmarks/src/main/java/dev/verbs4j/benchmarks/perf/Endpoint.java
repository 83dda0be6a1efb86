package dev.verbs4j.benchmarks.perf;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What each side tells the other before the QPs connect: the same facts perftest exchanges
 * (LID, QP number, PSN, rkey, buffer address, GID), plus the port's active MTU so both pick the
 * smaller one.
 */
public record Endpoint(int lid, int qpNumber, int psn, int rkey, long address, byte[] gid, int mtu) {

    public Endpoint {
        if (gid.length != 16) {
            throw new IllegalArgumentException("a GID has 16 bytes, got " + gid.length);
        }
        gid = gid.clone();
    }

    @Override
    public byte[] gid() {
        return gid.clone();
    }

    void writeTo(DataOutput out) throws IOException {
        out.writeInt(lid);
        out.writeInt(qpNumber);
        out.writeInt(psn);
        out.writeInt(rkey);
        out.writeLong(address);
        out.write(gid);
        out.writeInt(mtu);
    }

    static Endpoint readFrom(DataInput in) throws IOException {
        int lid = in.readInt();
        int qpn = in.readInt();
        int psn = in.readInt();
        int rkey = in.readInt();
        long address = in.readLong();
        byte[] gid = new byte[16];
        in.readFully(gid);
        int mtu = in.readInt();
        return new Endpoint(lid, qpn, psn, rkey, address, gid, mtu);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint e && e.lid == lid && e.qpNumber == qpNumber && e.psn == psn && e.rkey == rkey
                && e.address == address && Arrays.equals(e.gid, gid) && e.mtu == mtu;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(gid) * 31 + qpNumber;
    }

    /** perftest's address line: "LID 0x0000 QPN 0x0011 PSN 0x4f2c1a RKey 0x0001ab VAddr 0x..." */
    @Override
    public String toString() {
        return String.format(" local address: LID %#06x QPN %#06x PSN %#08x RKey %#08x VAddr %#018x%n GID: %s",
                lid, qpNumber, psn, rkey, address, gidText());
    }

    /** Colon-separated decimal bytes, as perftest prints a GID. */
    String gidText() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < gid.length; i++) {
            s.append(i == 0 ? "" : ":").append(String.format("%02d", Byte.toUnsignedInt(gid[i])));
        }
        return s.toString();
    }

    String gidHex() {
        return HexFormat.of().formatHex(gid);
    }
}
