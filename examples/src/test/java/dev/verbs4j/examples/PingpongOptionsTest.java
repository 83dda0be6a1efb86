package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.examples.PingpongOptions.Flavor;
import org.junit.jupiter.api.Test;

class PingpongOptionsTest {
    private static PingpongOptions rc(String... args) throws Exception {
        return PingpongOptions.parse(Flavor.RC, args);
    }

    @Test
    void defaultsOfIbvRcPingpong() throws Exception {
        PingpongOptions o = rc();
        assertEquals(18515, o.port);
        assertEquals(1, o.ibPort);
        assertEquals(4096, o.size);
        assertEquals(1024, o.mtu);
        assertEquals(500, o.rxDepth);
        assertEquals(1000, o.iters);
        assertEquals(-1, o.gidIndex);
        assertFalse(o.events);
        assertNull(o.serverName);
        assertFalse(o.isClient());
    }

    @Test
    void udDefaultsToTheSizeItsCodeUses() throws Exception {
        assertEquals(1024, PingpongOptions.parse(Flavor.UD, new String[0]).size);
    }

    @Test
    void shortLongAttachedAndPermutedForms() throws Exception {
        PingpongOptions o = rc("-d", "rxe0", "-g3", "10.77.0.1", "--size=4000", "--mtu", "1024", "-ec", "-n", "0x10");
        assertEquals("rxe0", o.device);
        assertEquals(3, o.gidIndex);
        assertEquals(4000, o.size);
        assertTrue(o.events);
        assertTrue(o.check);
        assertEquals(16, o.iters);
        assertEquals("10.77.0.1", o.serverName);
        assertTrue(o.isClient());
    }

    @Test
    void rejectsWhatTheCToolRejects() {
        assertThrows(PingpongOptions.BadCommandLine.class, () -> rc("-m", "1000"));
        assertThrows(PingpongOptions.BadCommandLine.class, () -> rc("-p", "70000"));
        assertThrows(PingpongOptions.BadCommandLine.class, () -> rc("-i", "0"));
        assertThrows(PingpongOptions.BadCommandLine.class, () -> rc("host1", "host2"));
        assertThrows(PingpongOptions.BadCommandLine.class, () -> rc("-x"));
        assertThrows(PingpongOptions.BadCommandLine.class, () -> rc("-s"));
        assertThrows(PingpongOptions.BadCommandLine.class,
                () -> PingpongOptions.parse(Flavor.UD, new String[] {"-m", "1024"}), "ud has no -m");
    }

    @Test
    void helpIsNotAnError() {
        assertThrows(PingpongOptions.HelpRequested.class, () -> rc("--help"));
        assertTrue(PingpongOptions.usage(Flavor.RC).contains("-g, --gid-idx=<gid index>"));
    }

    @Test
    void cNumberRules() {
        assertEquals(16, CNumbers.strtol("0x10"));
        assertEquals(8, CNumbers.strtol("010"));
        assertEquals(12, CNumbers.strtol("12abc"));
        assertEquals(0, CNumbers.strtol("abc"));
        assertEquals(10, CNumbers.atoi("010"));
        assertEquals(-1, CNumbers.atoi("-1"));
    }
}
