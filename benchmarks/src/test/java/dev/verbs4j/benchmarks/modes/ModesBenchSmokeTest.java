package dev.verbs4j.benchmarks.modes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.ChannelException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Both benchmarks run with tiny counts over TCP on loopback and print well-formed rows (no timing checked). */
class ModesBenchSmokeTest {
    private static final String NUMBER = "\\d+(\\.\\d+)?";

    @Test
    void modeBenchPrintsOneRowPerMode() throws Exception {
        for (String mode : List.of("busy", "event", "adaptive")) {
            for (String thread : List.of("loop", "app")) {
                assertOneRow(mode, thread);
            }
        }
    }

    private static void assertOneRow(String mode, String thread) throws Exception {
        {
            int port = freePort();
            ModeBenchOptions server = ModesCommandLineTest.modeBench("--server", "--transport", "tcp", "--mode",
                    mode, "--thread", thread, "-p", Integer.toString(port));
            CompletableFuture<Void> served = CompletableFuture.runAsync(
                    () -> CompletionModeBench.run(server, new PrintStream(new ByteArrayOutputStream())));
            ModeBenchOptions client = ModesCommandLineTest.modeBench("--transport", "tcp", "--mode", mode,
                    "--thread", thread, "-p", Integer.toString(port), "-s", "100", "-n", "50", "--warmup", "5", "127.0.0.1");
            List<String> lines = runClient(client);
            served.get(60, TimeUnit.SECONDS);
            assertEquals("transport: tcp (reason: forced by configuration)", lines.get(0));
            assertEquals(CompletionModeBench.HEADER, lines.get(1) + "\n" + lines.get(2));
            String row = lines.get(3);
            String numbers = "(" + NUMBER + " \\| ){5}" + NUMBER + " \\|"; // p50 to CPU, then JIT ms
            assertTrue(row.matches("\\| " + mode + " \\| " + thread + " \\| 100 \\| 50 \\| " + numbers), row);
        }
    }

    @Test
    void tcpVsNioPrintsMediansEachRoundsRatiosBestRoundsAndEveryRound() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TcpFallbackVsNioBench.run(ModesCommandLineTest.tcpVsNio("-s", "64,4096", "-n", "200", "--rounds", "2",
                "--rtt-iters", "50", "--warmup", "100"),
                new PrintStream(bytes, true));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        String all = String.join("\n", lines);
        assertEquals(22, lines.size(), all);
        String cells = " \\| (" + NUMBER + " \\| ){8}" + NUMBER + " \\|";
        assertEquals(TcpFallbackVsNioBench.HEADER, lines.get(0) + "\n" + lines.get(1), all);
        assertTrue(lines.get(2).matches("\\| 64" + cells), lines.get(2));
        assertTrue(lines.get(3).matches("\\| 4096" + cells), lines.get(3));
        assertEquals(TcpFallbackVsNioBench.RATIOS_TITLE.formatted(2), lines.get(5), all);
        assertEquals(TcpFallbackVsNioBench.RATIOS_HEADER, lines.get(7) + "\n" + lines.get(8), all);
        String spread = NUMBER + " \\(" + NUMBER + "-" + NUMBER + "\\)";
        String ratios = " \\| (" + spread + " \\| ){2}" + spread + " \\|";
        assertTrue(lines.get(9).matches("\\| 64" + ratios), lines.get(9));
        assertTrue(lines.get(10).matches("\\| 4096" + ratios), lines.get(10));
        assertEquals(TcpFallbackVsNioBench.BEST_TITLE.formatted(2), lines.get(12), all);
        assertEquals(TcpFallbackVsNioBench.HEADER, lines.get(14) + "\n" + lines.get(15), all);
        assertTrue(lines.get(16).matches("\\| 64" + cells), lines.get(16));
        assertTrue(lines.get(17).matches("\\| 4096" + cells), lines.get(17));
        assertEquals(TcpFallbackVsNioBench.ROUNDS_TITLE, lines.get(19), all);
        String round = NUMBER + " / " + NUMBER + "; " + NUMBER + " / " + NUMBER + "; " + NUMBER + " / " + NUMBER;
        assertTrue(lines.get(20).matches("- 64 B, 200 / 200 messages a pass: " + round + " \\| " + round), lines.get(20));
        assertTrue(lines.get(21).matches("- 4096 B, 200 / 200 messages a pass: " + round + " \\| " + round),
                lines.get(21));
    }

    @Test
    void tcpVsNioSizesTimedPassesFromTheWarmUp() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TcpFallbackVsNioBench.run(ModesCommandLineTest.tcpVsNio("-s", "4096", "--seconds", "0.05", "--rounds", "1",
                "--rtt-iters", "50", "--warmup", "100"), new PrintStream(bytes, true));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        String rounds = lines.get(lines.size() - 1);
        Matcher counts = Pattern.compile("- 4096 B, (\\d+) / (\\d+) messages a pass: .*").matcher(rounds);
        assertTrue(counts.matches(), rounds);
        assertTrue(Integer.parseInt(counts.group(1)) >= TcpFallbackVsNioBench.MIN_TIMED_PASS, rounds);
        assertTrue(Integer.parseInt(counts.group(2)) >= TcpFallbackVsNioBench.MIN_TIMED_PASS, rounds);
    }

    /** The client, retried while the server thread is not listening yet. */
    private static List<String> runClient(ModeBenchOptions client) throws Exception {
        for (int attempt = 0; ; attempt++) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try {
                CompletionModeBench.run(client, new PrintStream(bytes, true, StandardCharsets.UTF_8));
                return bytes.toString(StandardCharsets.UTF_8).lines().toList();
            } catch (ChannelException e) {
                if (attempt == 50) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
