package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Expected strings are what glibc's inet_ntop(AF_INET6) prints for the same bytes. */
class Ipv6TextTest {
    private static String text(String hex) {
        return Ipv6Text.format(HexFormat.of().parseHex(hex));
    }

    @Test
    void zeroGid() {
        assertEquals("::", text("00000000000000000000000000000000"));
    }

    @Test
    void ipv4Mapped() {
        assertEquals("::ffff:10.77.0.1", text("00000000000000000000ffff0a4d0001"));
    }

    @Test
    void linkLocal() {
        assertEquals("fe80::250:b6ff:fe1a:2b3c", text("fe800000000000000250b6fffe1a2b3c"));
    }

    @Test
    void loopbackAndTrailingRun() {
        assertEquals("::1", text("00000000000000000000000000000001"));
        assertEquals("fe80::", text("fe800000000000000000000000000000"));
    }

    @Test
    void singleZeroWordIsNotCompressed() {
        assertEquals("1:0:2:3:4:5:6:7", text("00010000000200030004000500060007"));
    }

    @Test
    void firstOfEqualRunsIsCompressed() {
        assertEquals("1::2:0:0:3:4", text("00010000000000020000000000030004"));
        assertEquals("::1.2.3.4", text("00000000000000000000000001020304"));
    }
}
