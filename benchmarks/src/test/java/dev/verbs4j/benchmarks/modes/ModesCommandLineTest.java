package dev.verbs4j.benchmarks.modes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command lines of {@code mode-bench}, {@code idle-loop} and {@code tcp-vs-nio}: the spellings
 * benchmarks/modes.sh passes, GNU forms, and what a usage error looks like.
 */
class ModesCommandLineTest {

    static ModeBenchOptions modeBench(String... args) {
        ModeBenchCommand c = new ModeBenchCommand();
        Cli.commandLine(c).parseArgs(args);
        return c.options();
    }

    static TcpFallbackVsNioBench.Options tcpVsNio(String... args) {
        TcpVsNioCommand c = new TcpVsNioCommand();
        Cli.commandLine(c).parseArgs(args);
        return c.options();
    }

    static IdleLoopBench.Options idleLoop(String... args) {
        IdleLoopCommand c = new IdleLoopCommand();
        Cli.commandLine(c).parseArgs(args);
        return c.options();
    }

    @Test
    void modeBenchTakesWhatModesShPasses() {
        ModeBenchOptions server = modeBench("--server", "--bind", "10.77.0.1", "--mode", "adaptive", "--thread", "app",
                "--transport", "rdma", "-p", "18711", "-d", "rxe0", "-x", "1");
        assertEquals(new ModeBenchOptions(true, null, "10.77.0.1", 18711, TransportPreference.RDMA, CompletionMode.ADAPTIVE,
                true, 64, 10_000, 1000, "rxe0", 1), server);
        ModeBenchOptions client = modeBench("--mode", "busy", "--thread", "loop", "--transport", "tcp", "-p", "18710",
                "-d", "rxe0", "-x", "1", "-s", "4096", "-n", "20000", "--warmup", "2000", "10.77.0.1");
        assertEquals(new ModeBenchOptions(false, "10.77.0.1", "127.0.0.1", 18710, TransportPreference.TCP,
                CompletionMode.BUSY_POLL, false, 4096, 20_000, 2000, "rxe0", 1), client);
    }

    @Test
    void modeBenchTakesGnuSpellingsAndTheHostAnywhere() {
        for (String[] args : new String[][] {{"-s64", "-n50", "h"}, {"--size=64", "--iters=50", "h"},
                {"h", "--size", "64", "-n", "50"}}) {
            ModeBenchOptions o = modeBench(args);
            assertEquals(64, o.size(), String.join(" ", args));
            assertEquals(50, o.iterations(), String.join(" ", args));
            assertEquals("h", o.host(), String.join(" ", args));
        }
        ModeBenchOptions defaults = modeBench("h");
        assertEquals(CompletionMode.EVENT, defaults.mode());
        assertEquals(TransportPreference.AUTO, defaults.transport());
        assertEquals(-1, defaults.gidIndex());
    }

    @Test
    void idleLoopTakesWhatModesShPasses() {
        assertEquals(new IdleLoopBench.Options(CompletionMode.EVENT, 8, 5, false, TransportPreference.TCP, "10.77.0.1",
                        "rxe0", 1),
                idleLoop("--mode", "event", "--channels", "8", "--seconds", "5", "--transport", "tcp", "--bind",
                        "10.77.0.1", "-d", "rxe0", "-x", "1"));
        assertEquals(new IdleLoopBench.Options(CompletionMode.ADAPTIVE, 1, 10, true, TransportPreference.TCP, "127.0.0.1",
                        null, -1),
                idleLoop("--mode", "adaptive", "--receiving", "--transport", "tcp"));
        assertEquals(new IdleLoopBench.Options(CompletionMode.EVENT, 1, 10, false, TransportPreference.AUTO, "127.0.0.1",
                        null, -1),
                idleLoop());
    }

    @Test
    void tcpVsNioTakesOneSizeOrAList() {
        TcpFallbackVsNioBench.Options one = tcpVsNio("-s", "4096", "-n", "2000");
        assertEquals(List.of(4096), one.sizes());
        assertEquals(2000, one.count());
        assertEquals(List.of(64, 4096, 65536), tcpVsNio().sizes());
        assertEquals(List.of(64, 4096), tcpVsNio("--sizes=64 4096").sizes());
        assertEquals(CompletionMode.BUSY_POLL, tcpVsNio("--mode", "busy").mode());
        assertEquals(12_000, tcpVsNio().warmup());
        assertEquals(0, tcpVsNio("--warmup", "0").warmup());
        assertFalse(tcpVsNio().timedPasses());
        assertEquals(20_000, tcpVsNio().count());
        assertEquals(2.5, tcpVsNio("--seconds", "2.5").passSeconds());
        assertTrue(tcpVsNio("--seconds=2.5").timedPasses());
    }

    @Test
    void timedPassesHoldWhatNioMovesInThatTimeButNoFewerThanTheFloor() {
        assertEquals(48_829, TcpFallbackVsNioBench.messagesPerPass(100, 2, 4096)); // 200 MB / 4096 B, rounded up
        assertEquals(TcpFallbackVsNioBench.MIN_TIMED_PASS, TcpFallbackVsNioBench.messagesPerPass(0.3, 2, 65536));
        assertEquals(Integer.MAX_VALUE / 2, TcpFallbackVsNioBench.messagesPerPass(1e9, 100, 1));
    }

    @Test
    void aUsageErrorSaysWhatIsWrongAndExitsTwo() {
        assertUsageError(ModeBenchCommand::new, "mode-bench", "give either --server or the server's HOST");
        assertUsageError(ModeBenchCommand::new, "mode-bench",
                "give either --server or the server's HOST", "--server", "h");
        assertUsageError(ModeBenchCommand::new, "mode-bench",
                "--thread must be loop or app, got 'x'", "--thread", "x", "h");
        assertUsageError(ModeBenchCommand::new, "mode-bench",
                "Invalid value for option '--mode': mode must be busy, event or adaptive, got 'x'", "--mode", "x", "h");
        assertUsageError(ModeBenchCommand::new, "mode-bench",
                "Invalid value for option '--transport': transport must be auto, rdma, tcp or shm, got 'x'", "--transport", "x", "h");
        assertUsageError(ModeBenchCommand::new, "mode-bench",
                "size and iterations must be positive", "-s", "0", "h");
        assertUsageError(ModeBenchCommand::new, "mode-bench", "Unknown option: '--bogus'",
                "--bogus", "h");
        assertUsageError(IdleLoopCommand::new, "idle-loop",
                "channels and seconds must be positive", "--channels", "0");
        assertUsageError(IdleLoopCommand::new, "idle-loop", "Unmatched argument", "h");
        assertUsageError(TcpVsNioCommand::new, "tcp-vs-nio", "--sizes takes numbers, got 'x'",
                "-s", "64,x");
        assertUsageError(TcpVsNioCommand::new, "tcp-vs-nio",
                "sizes, iterations and rounds must be positive, the warm-up not negative", "--rounds", "0");
        assertUsageError(TcpVsNioCommand::new, "tcp-vs-nio", "give -n or --seconds, not both",
                "-n", "2000", "--seconds", "2");
        assertUsageError(TcpVsNioCommand::new, "tcp-vs-nio", "--seconds must be positive", "--seconds", "0");
    }

    @Test
    void helpListsEverySpellingModesShUses() {
        assertHelpHas(new ModeBenchCommand(), "--server", "--bind", "--mode", "--thread", "--transport", "-p", "-d", "-x",
                "-s", "-n", "--warmup", "HOST");
        assertHelpHas(new IdleLoopCommand(), "--mode", "--channels", "--seconds", "--receiving", "--transport", "--bind",
                "-d", "-x");
        assertHelpHas(new TcpVsNioCommand(), "-s", "-n", "--seconds", "--rounds", "--rtt-iters", "--mode");
    }

    private static void assertUsageError(Supplier<ModesCommand<?>> make, String name, String message, String... args) {
        ModesCommand<?> command = make.get();
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(command);
        cl.setErr(new PrintWriter(err));
        cl.setExecutionStrategy(parsed -> {
            command.options(); // what call() checks before it runs anything
            return 0;
        });
        assertEquals(Cli.USAGE_ERROR, cl.execute(args), String.join(" ", args));
        String text = err.toString();
        assertTrue(text.startsWith("verbs4j " + name + ": "), text);
        assertTrue(text.contains(message), text);
        assertTrue(text.contains("Try 'verbs4j " + name + " --help' for more information."), text);
    }

    private static void assertHelpHas(Object command, String... spellings) {
        StringWriter out = new StringWriter();
        CommandLine cl = Cli.commandLine(command);
        cl.setOut(new PrintWriter(out));
        assertEquals(0, cl.execute("--help"));
        String help = out.toString();
        assertFalse(help.isBlank());
        for (String s : spellings) {
            assertTrue(help.contains(s), s + " in\n" + help);
        }
    }
}
