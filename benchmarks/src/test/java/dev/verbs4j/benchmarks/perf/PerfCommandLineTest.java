package dev.verbs4j.benchmarks.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.examples.cli.Cli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** perftest's spellings on {@code verbs4j perf}, and what a usage error looks like. */
class PerfCommandLineTest {

    @Test
    void everySpellingPerftestTakes() {
        for (String[] args : new String[][] {{"send_lat", "-s64"}, {"send_lat", "-s", "64"}, {"send_lat", "--size=64"},
                {"send_lat", "--size", "64"}, {"ib_send_lat", "-s64"}}) {
            assertEquals(List.of(64), PerfOptions.parse(args).sizes(), String.join(" ", args));
        }
        PerfOptions o = PerfOptions.parse(new String[] {"write_bw", "-d", "rxe0", "-x1", "-n", "1000", "-eN", "-t64",
                "host1"});
        assertEquals("rxe0", o.device());
        assertEquals(1, o.gidIndex());
        assertEquals(1000, o.iterations());
        assertTrue(o.events() && o.noPeak());
        assertEquals(64, o.txDepth());
        assertEquals("host1", o.serverHost());
        assertEquals(List.of(64), PerfOptions.parse(new String[] {"send_lat", "host1", "-s64"}).sizes(),
                "options after the host, as getopt permutes them");
    }

    @Test
    void aUsageErrorSaysWhatIsWrongAndExitsTwo() {
        for (String[][] c : new String[][][] {
                {{"send_lat", "--bogus"}, {"Unknown option: '--bogus'"}},
                {{"send_lat", "-s"}, {"Missing required parameter for option '--size'"}},
                {{"send_lat", "-s", "big"}, {"Invalid value for option '--size': 'big' is not an int"}},
                {{"send_lat", "-n", "4"}, {"option -n must be at least 5, got 4"}},
                {{"nope"}, {"Invalid value for positional parameter at index 0 (TEST): unknown test 'nope'; tests: "
                        + "send_lat, write_lat, read_lat, atomic_lat, send_bw, write_bw, read_bw\n"}},
                {{}, {"Missing required parameter: 'TEST'"}}}) {
            StringWriter err = new StringWriter();
            CommandLine cl = Cli.commandLine(new PerfCommandLine());
            cl.setErr(new PrintWriter(err));
            cl.setExecutionStrategy(parsed -> {
                ((PerfCommandLine) cl.getCommand()).options(); // what call() checks before it runs anything
                return 0;
            });
            assertEquals(Cli.USAGE_ERROR, cl.execute(c[0]), String.join(" ", c[0]));
            String text = err.toString();
            assertTrue(text.startsWith("verbs4j perf: "), text);
            assertTrue(text.contains(c[1][0]), text);
            assertTrue(text.contains("Try 'verbs4j perf --help' for more information."), text);
        }
    }

    @Test
    void helpShowsPerftestsOptions() {
        StringWriter out = new StringWriter();
        CommandLine cl = Cli.commandLine(new PerfCommandLine());
        cl.setOut(new PrintWriter(out));
        assertEquals(0, cl.execute("--help"));
        String help = out.toString();
        assertTrue(help.startsWith("Usage: verbs4j perf TEST [OPTIONS]"), help);
        for (String option : List.of("-s, --size=BYTES", "-d, --ib-dev=DEV", "-x, --gid-index=N", "-n, --iters=N",
                "--warmup=N", "-v, --verbose")) {
            assertTrue(help.contains(option), option + " in\n" + help);
        }
    }
}
