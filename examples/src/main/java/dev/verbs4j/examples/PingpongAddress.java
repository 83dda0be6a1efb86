package dev.verbs4j.examples;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One side's address as the pingpong programs exchange it: a 52-byte NUL-terminated string
 * {@code "%04x:%06x:%06x:%s"} of LID, QP number, start PSN and the GID as 32 hex digits in
 * memory order (all zero when no GID index was given).
 */
record PingpongAddress(int lid, int qpn, int psn, byte[] gid) {
    /** sizeof "0000:000000:000000:00000000000000000000000000000000" in the C sources. */
    static final int WIRE_SIZE = 52;

    PingpongAddress {
        if (gid.length != 16) {
            throw new IllegalArgumentException("a GID has 16 bytes, got " + gid.length);
        }
        gid = gid.clone();
    }

    @Override
    public byte[] gid() {
        return gid.clone();
    }

    /** The interface-id half of the GID is set: the C programs then route with a GRH (is_global). */
    boolean hasGlobalRoute() {
        for (int i = 8; i < 16; i++) {
            if (gid[i] != 0) {
                return true;
            }
        }
        return false;
    }

    byte[] encode() {
        String text = String.format("%04x:%06x:%06x:%s", lid, qpn, psn, HexFormat.of().formatHex(gid));
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        if (ascii.length >= WIRE_SIZE) {
            throw new IllegalArgumentException("LID/QPN/PSN too wide for the 52-byte message: " + text);
        }
        return Arrays.copyOf(ascii, WIRE_SIZE); // zero-filled: the NUL terminator and beyond
    }

    /** Parses what the peer sent, with the leniency of sscanf("%x:%x:%x:%s") but rejecting garbage. */
    static PingpongAddress decode(byte[] message) {
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        String text = new String(message, 0, end, StandardCharsets.US_ASCII).strip();
        String[] parts = text.split(":", 4);
        if (parts.length != 4) {
            throw new IllegalArgumentException("malformed peer address '" + text + "' (want LID:QPN:PSN:GID)");
        }
        String gidHex = parts[3].split("\\s", 2)[0];
        if (gidHex.length() < 32) {
            throw new IllegalArgumentException("malformed GID in peer address '" + text + "' (want 32 hex digits)");
        }
        try {
            return new PingpongAddress(hex(parts[0]), hex(parts[1]), hex(parts[2]),
                    HexFormat.of().parseHex(gidHex.substring(0, 32)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed peer address '" + text + "': " + e.getMessage(), e);
        }
    }

    private static int hex(String field) {
        return Integer.parseUnsignedInt(field.strip(), 16);
    }

    /** The line both programs print for each side (ud_pingpong has ": GID" on its local line). */
    String describe(String label, String gidSeparator) {
        return String.format("  %s LID 0x%04x, QPN 0x%06x, PSN 0x%06x%s GID %s", label, lid, qpn, psn, gidSeparator,
                Ipv6Text.format(gid));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PingpongAddress a && a.lid == lid && a.qpn == qpn && a.psn == psn
                && Arrays.equals(a.gid, gid);
    }

    @Override
    public int hashCode() {
        return ((lid * 31 + qpn) * 31 + psn) * 31 + Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return describe("address:", ",").strip();
    }
}
