package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.examples.PingpongOptions.Flavor;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

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
        assertThrows(ParameterException.class, () -> rc("-m", "1000"));
        assertThrows(ParameterException.class, () -> rc("-p", "70000"));
        assertThrows(ParameterException.class, () -> rc("-i", "0"));
        assertThrows(ParameterException.class, () -> rc("host1", "host2"));
        assertThrows(ParameterException.class, () -> rc("-x"));
        assertThrows(ParameterException.class, () -> rc("-s"));
        assertThrows(ParameterException.class,
                () -> PingpongOptions.parse(Flavor.UD, new String[] {"-m", "1024"}), "ud has no -m");
    }

    @Test
    void helpIsNotAnError() {
        CommandLine cl = PingpongOptions.commandLine(Flavor.RC);
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertEquals(0, cl.execute("--help"));
        String usage = out.toString();
        assertTrue(usage.contains("-g, --gid-idx=<gid index>"), usage);
        assertTrue(usage.contains("verbs4j rc-pingpong <host>     connect to server at <host>"), usage);
        assertTrue(usage.contains("size of message to exchange (default 4096)"), usage);
        assertTrue(usage.contains("-m, --mtu=<size>"), usage);
        CommandLine ud = PingpongOptions.commandLine(Flavor.UD);
        StringWriter udOut = new StringWriter();
        ud.setOut(new PrintWriter(udOut));
        ud.usage(ud.getOut());
        assertTrue(udOut.toString().contains("size of message to exchange (default 1024)"), udOut.toString());
        assertFalse(udOut.toString().contains("--mtu"), udOut.toString());
    }

    @Test
    void aBadCommandLineExitsOneWithTheUsageOnStdoutLikeTheCTool() {
        CommandLine cl = PingpongOptions.commandLine(Flavor.RC);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        cl.setExecutionStrategy(parsed -> {
            PingpongOptions.fromCommandLine(cl);
            return 0;
        });
        assertEquals(1, cl.execute("-m", "1000"));
        assertTrue(err.toString().startsWith("verbs4j rc-pingpong: MTU 1000 is not one of 256"), err.toString());
        assertTrue(out.toString().startsWith("Usage:"), out.toString());
        assertEquals(1, cl.execute("-o"));
        assertTrue(err.toString().contains("-o -O -P -t -j -N"), err.toString());
    }

    @Test
    void gnuSpellingsOfOneOption() throws Exception {
        for (String[] args : new String[][] {{"-s64"}, {"-s", "64"}, {"--size=64"}, {"--size", "64"}}) {
            assertEquals(64, rc(args).size, String.join(" ", args));
        }
        PingpongOptions o = rc("-ecd", "rxe0", "-g", "1", "-n", "1000", "--", "host");
        assertTrue(o.events && o.check);
        assertEquals("rxe0", o.device);
        assertEquals(1, o.gidIndex);
        assertEquals("host", o.serverName);
        assertEquals(7, rc("-i7").ibPort);
        assertEquals("@rxe0", rc("-d", "@rxe0").device, "an @ value is a value, as getopt reads it, not a file of arguments");
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
