package dev.verbs4j.verbs;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;

/**
 * One populated entry of a port's GID table, from {@link Context#gidTable(int)}. An immutable
 * value (the byte array is copied in and out), safe to share between threads.
 *
 * @param port    the port the entry belongs to, from 1
 * @param index   GID index (what {@code -g}/{@code -x} take in rdma-core's tools)
 * @param gid     the 16 raw bytes, network order
 * @param type    IB, RoCE v1 or RoCE v2
 * @param netdev  the network interface the GID belongs to (RoCE), or "" for IB
 */
public record GidEntry(int port, int index, byte[] gid, GidType type, String netdev) {

    /** Copies {@code gid}, so the caller may reuse its array. */
    public GidEntry {
        gid = gid.clone();
    }

    /**
     * The GID's 16 raw bytes, network order.
     *
     * @return a fresh copy the caller may modify
     */
    @Override
    public byte[] gid() {
        return gid.clone();
    }

    /**
     * True for an IPv4-mapped GID (::ffff:a.b.c.d), what RoCE v2 over IPv4 uses.
     *
     * @return whether the first 10 bytes are 0 and the next two 0xff
     */
    public boolean isIpv4() {
        for (int i = 0; i < 10; i++) {
            if (gid[i] != 0) {
                return false;
            }
        }
        return gid[10] == (byte) 0xff && gid[11] == (byte) 0xff;
    }

    /**
     * The GID as an IP address (IPv4 for mapped GIDs).
     *
     * @return an {@link java.net.Inet4Address} for IPv4-mapped GIDs, else an {@link Inet6Address}
     */
    public InetAddress address() {
        try {
            return isIpv4() ? InetAddress.getByAddress(java.util.Arrays.copyOfRange(gid, 12, 16))
                    : Inet6Address.getByAddress(null, gid, null);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The GID in the form ibv_devinfo prints, e.g. "0000:0000:0000:0000:0000:ffff:0a4d:0001".
     *
     * @return eight groups of four lower-case hex digits
     */
    public String formatted() {
        String hex = HexFormat.of().formatHex(gid);
        StringBuilder s = new StringBuilder(39);
        for (int i = 0; i < 32; i += 4) {
            if (i > 0) {
                s.append(':');
            }
            s.append(hex, i, i + 4);
        }
        return s.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GidEntry e && e.port == port && e.index == index && java.util.Arrays.equals(e.gid, gid)
                && e.type == type && e.netdev.equals(netdev);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * port + index) + java.util.Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return "GID[" + index + "] " + formatted() + " " + type.label() + (netdev.isEmpty() ? "" : " " + netdev);
    }
}
