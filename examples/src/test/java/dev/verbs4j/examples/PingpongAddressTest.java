package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class PingpongAddressTest {
    /** ::ffff:10.77.0.1, the RoCE v2 IPv4 GID of the rig's rxe0. */
    private static final byte[] GID = HexFormat.of().parseHex("00000000000000000000ffff0a4d0001");

    @Test
    void encodesTheFiftyTwoByteMessageOfTheCPrograms() {
        byte[] wire = new PingpongAddress(0, 0x11, 0xabcdef, GID).encode();
        assertEquals(52, wire.length);
        String expected = "0000:000011:abcdef:00000000000000000000ffff0a4d0001";
        assertEquals(51, expected.length());
        assertArrayEquals(expected.getBytes(StandardCharsets.US_ASCII), Arrays.copyOf(wire, 51));
        assertEquals(0, wire[51], "NUL terminated");
    }

    @Test
    void roundTrips() {
        PingpongAddress a = new PingpongAddress(0x1234, 0xfffffe, 0x000001, GID);
        assertEquals(a, PingpongAddress.decode(a.encode()));
    }

    @Test
    void parsesWhatSprintfInCWrites() {
        // what ibv_rc_pingpong writes for LID 0, QPN 0x11, PSN 0x5f3e1c and no -g: the zero GID
        byte[] msg = Arrays.copyOf("0000:000011:5f3e1c:00000000000000000000000000000000"
                .getBytes(StandardCharsets.US_ASCII), 52);
        PingpongAddress a = PingpongAddress.decode(msg);
        assertEquals(0, a.lid());
        assertEquals(0x11, a.qpn());
        assertEquals(0x5f3e1c, a.psn());
        assertFalse(a.hasGlobalRoute());
    }

    @Test
    void theGidIsTheRawBytesInMemoryOrder() {
        byte[] gid = HexFormat.of().parseHex("fe800000000000000250b6fffe1a2b3c");
        PingpongAddress a = PingpongAddress.decode(new PingpongAddress(1, 2, 3, gid).encode());
        assertArrayEquals(gid, a.gid());
        assertTrue(a.hasGlobalRoute());
    }

    @Test
    void rejectsGarbageWithAClearMessage() {
        byte[] msg = Arrays.copyOf("hello world".getBytes(StandardCharsets.US_ASCII), 52);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PingpongAddress.decode(msg));
        assertTrue(e.getMessage().contains("LID:QPN:PSN:GID"), e.getMessage());
    }

    @Test
    void printsTheAddressLineLikeTheCPrograms() {
        PingpongAddress a = new PingpongAddress(0, 0x11, 0x5f3e1c, GID);
        assertEquals("  local address:  LID 0x0000, QPN 0x000011, PSN 0x5f3e1c, GID ::ffff:10.77.0.1",
                a.describe("local address: ", ","));
        assertEquals("  remote address: LID 0x0000, QPN 0x000011, PSN 0x5f3e1c, GID ::ffff:10.77.0.1",
                a.describe("remote address:", ","));
    }
}
