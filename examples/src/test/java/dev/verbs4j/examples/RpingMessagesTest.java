package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParameterException;

class RpingMessagesTest {
    @Test
    void bufferInfoIsSixteenBigEndianBytes() {
        RpingMessages.BufferInfo info = new RpingMessages.BufferInfo(0x00007f1234567890L, 0x1a2b, 64);
        assertEquals("00007f1234567890" + "00001a2b" + "00000040", HexFormat.of().formatHex(info.encode()));
        assertEquals(info, RpingMessages.BufferInfo.decode(info.encode()));
    }

    @Test
    void rejectsAnythingButSixteenBytes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RpingMessages.BufferInfo.decode(new byte[15]));
        assertEquals("Received bogus data, size 15", e.getMessage());
    }

    @Test
    void pingDataOfTheCClient() {
        // rping -c -v -S 40 prints for its first ping (size-1 characters):
        assertEquals("rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                RpingMessages.cString(RpingMessages.pingData(0, 40)));
        assertEquals("rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[",
                RpingMessages.cString(RpingMessages.pingData(1, 40)));
        byte[] data = RpingMessages.pingData(0, 40);
        assertEquals(0, data[39]);
        assertEquals(40, RpingMessages.echoLength(data));
    }

    @Test
    void lettersWrapFromSmallZToCapitalA() {
        String s = RpingMessages.cString(RpingMessages.pingData(57, 64)); // starts at 'z'
        assertTrue(s.startsWith("rdma-ping-57: zABC"), s);
        String t = RpingMessages.cString(RpingMessages.pingData(58, 64)); // start wraps to 'A'
        assertTrue(t.startsWith("rdma-ping-58: ABC"), t);
    }

    @Test
    void optionsLikeRping() throws Exception {
        RpingOptions o = RpingOptions.parse(new String[] {"-c", "-vV", "-S", "100", "-C5", "-a", "127.0.0.1"});
        assertEquals(false, o.server);
        assertTrue(o.verbose && o.validate);
        assertEquals(100, o.size);
        assertEquals(5, o.count);
        assertEquals(7174, o.port);
        assertThrows(ParameterException.class, () -> RpingOptions.parse(new String[] {"-s", "-S", "25"}));
        assertThrows(ParameterException.class, () -> RpingOptions.parse(new String[] {"-s", "-S", "65536"}));
        assertThrows(ParameterException.class, () -> RpingOptions.parse(new String[] {"-v"}));
        assertThrows(ParameterException.class, () -> RpingOptions.parse(new String[] {"-c"}));
        assertEquals(65535, RpingOptions.parse(new String[] {"-s", "-S", "65535"}).size);
        assertEquals(26, RpingOptions.parse(new String[] {"-s", "-S", "26"}).size);
    }
}
