package dev.verbs4j.benchmarks.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PerfOptionsTest {
    @Test
    void perftestDefaults() {
        PerfOptions lat = PerfOptions.parse(new String[] {"send_lat"});
        assertTrue(lat.isServer());
        assertEquals(List.of(2), lat.sizes());
        assertEquals(1000, lat.iterations());
        assertEquals(1, lat.txDepth());
        PerfOptions bw = PerfOptions.parse(new String[] {"ib_write_bw", "10.0.0.1"});
        assertEquals("10.0.0.1", bw.serverHost());
        assertEquals(List.of(65536), bw.sizes());
        assertEquals(5000, bw.iterations());
        assertEquals(128, bw.txDepth());
        assertEquals(100, bw.cqModeration());
        assertEquals(List.of(8), PerfOptions.parse(new String[] {"atomic_lat"}).sizes());
    }

    @Test
    void shortAndLongForms() {
        PerfOptions o = PerfOptions.parse(new String[] {"read_bw", "-d", "rxe0", "-x", "3", "--size=4096", "-n", "200",
                "-i", "1", "-I", "64", "-t", "32", "-Q", "8", "-e", "-p", "19000", "-N", "--warmup", "50", "host"});
        assertEquals("rxe0", o.device());
        assertEquals(3, o.gidIndex());
        assertEquals(List.of(4096), o.sizes());
        assertEquals(200, o.iterations());
        assertEquals(64, o.inlineSize());
        assertEquals(32, o.txDepth());
        assertEquals(8, o.cqModeration());
        assertTrue(o.events());
        assertEquals(19000, o.tcpPort());
        assertTrue(o.noPeak());
        assertEquals(50, o.warmup());
        assertEquals("host", o.serverHost());
    }

    @Test
    void allSizesArePowersOfTwoUpTo8MiB() {
        List<Integer> sizes = PerfOptions.parse(new String[] {"write_lat", "-a"}).sizes();
        assertEquals(23, sizes.size());
        assertEquals(2, sizes.getFirst());
        assertEquals(1 << 23, sizes.getLast());
    }

    @Test
    void cqModerationNeverExceedsTheSendQueue() {
        assertEquals(16, PerfOptions.parse(new String[] {"write_bw", "-t", "16"}).cqModeration());
    }

    @Test
    void mistakesAreRefusedWithTheReason() {
        assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse(new String[] {"nope"}));
        assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse(new String[] {"send_lat", "-n", "4"}));
        assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse(new String[] {"send_lat", "-s"}));
        assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse(new String[] {"send_lat", "--bogus"}));
        assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse(new String[] {"atomic_lat", "-s", "64"}));
        assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse(new String[] {"write_lat", "-e"}));
        assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse(new String[] {"send_lat", "a", "b"}));
    }

    @Test
    void serverAdoptsTheClientsRun() {
        PerfOptions server = PerfOptions.parse(new String[] {"send_bw"});
        assertNull(server.serverHost());
        PerfOptions run = server.withRun(List.of(2, 64), 300, 10);
        assertEquals(List.of(2, 64), run.sizes());
        assertEquals(300, run.iterations());
        assertEquals(10, run.warmup());
        assertFalse(PerfOptions.parse(new String[] {"send_bw", "h"}).isServer());
    }
}
