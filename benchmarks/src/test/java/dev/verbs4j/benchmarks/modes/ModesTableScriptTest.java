package dev.verbs4j.benchmarks.modes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * benchmarks/modes-table.sh over the raw outputs of {@code modes.sh --repeat}: each cell is the
 * median over the rounds, each ratio the median of the rounds' own ratios with their range, and
 * a round whose run failed is named, not counted, and a row is compared with rdma-core's pair
 * measured just before it where there is one; over {@code idle-loop}'s rows; and over
 * {@code tcp-vs-nio}'s outputs, whose medians, best rounds and rounds go under their own titles,
 * size by size.
 */
class ModesTableScriptTest {
    @TempDir
    Path raw;

    /** One round: rdma-core's two figures and one mode-bench client line (p50, p99, CPU s client / server). */
    private void round(int n, String busy, String event, String p50, String p99) throws IOException {
        Path dir = Files.createDirectories(raw.resolve("round-" + n));
        Files.writeString(dir.resolve("rc-64-busy.txt"), busy + "\n");
        Files.writeString(dir.resolve("rc-64-event.txt"), event + "\n");
        Files.writeString(dir.resolve("rtt-busy-64-app.txt"),
                "transport: rdma (rxe0)\n| busy | app | 64 | 4000 | " + p50 + " | " + p99 + " | 50.0 | 0.5 | 0.6 |\n");
    }

    private String table() throws Exception {
        Process p = new ProcessBuilder("bash", Path.of("modes-table.sh").toAbsolutePath().toString(), raw.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private static String row(String table) {
        List<String> rows = table.lines().filter(l -> l.startsWith("| busy | app | 64 |")).toList();
        assertEquals(1, rows.size(), table);
        return rows.getFirst();
    }

    @Test
    void threeRoundsGiveMediansAndTheRangeOfTheRoundsOwnRatios() throws Exception {
        round(1, "50", "400", "40.0", "900.0");   // ratio 0.80
        round(2, "20", "300", "60.0", "100.0");   // ratio 3.00
        round(3, "40", "350", "44.0", "500.0");   // ratio 1.10
        String table = table();
        assertTrue(table.contains("Medians over 3 rounds"), table);
        // p50 median 44, p99 median 500, rdma-core medians 40 / 350; ratio median 1.10 of 0.80, 1.10, 3.00
        assertEquals("| busy | app | 64 | 44.0 | 500.0 | 0.5 | 0.6 | 40 | 350 | 1.10 (0.80-3.00) | 0.13 (0.10-0.20) |",
                row(table));
    }

    @Test
    void aFailedRoundIsNamedAndLeftOut() throws Exception {
        round(1, "50", "400", "40.0", "900.0");
        round(2, "50", "400", "60.0", "100.0");
        Files.writeString(raw.resolve("round-2").resolve("rtt-busy-64-app.txt"), "mode-bench: connection refused\n");
        String row = row(table());
        assertTrue(row.startsWith("| busy | app | 64 | 40.0 (1 failed: "), row);
        assertTrue(row.contains("round-2/rtt-busy-64-app.txt"), row);
        assertTrue(row.endsWith("| 0.80 | 0.10 |"), row); // one round left: its own ratio
    }

    @Test
    void oneRoundReadsAsBefore() throws Exception {
        round(1, "50", "400", "40.0", "900.0");
        String table = table();
        assertTrue(!table.contains("Medians over"), table);
        assertEquals("| busy | app | 64 | 40.0 | 900.0 | 0.5 | 0.6 | 50 | 400 | 0.80 | 0.10 |", row(table));
    }

    @Test
    void aRowIsComparedWithRdmaCoresPairMeasuredJustBeforeIt() throws Exception {
        round(1, "50", "400", "40.0", "900.0");   // the start of the round's pair, as older runs have it
        Path dir = raw.resolve("round-1");
        Files.writeString(dir.resolve("rc-64-before-busy-app-busy.txt"), "20\n");
        Files.writeString(dir.resolve("rc-64-before-busy-app-event.txt"), "200\n");
        Files.writeString(dir.resolve("rtt-busy-64-loop.txt"),
                "transport: rdma (rxe0)\n| busy | loop | 64 | 4000 | 32.0 | 90.0 | 35.0 | 0.2 | 0.3 |\n");
        String table = table();
        assertEquals("| busy | app | 64 | 40.0 | 900.0 | 0.5 | 0.6 | 20 | 200 | 2.00 | 0.20 |", row(table));
        assertTrue(table.contains("| busy | loop | 64 | 32.0 | 90.0 | 0.2 | 0.3 | 50 | 400 | 0.64 | 0.08 |"), table);
    }

    @Test
    void aRunOfSomeModesAloneGivesTheirRows() throws Exception {
        Path dir = Files.createDirectories(raw.resolve("round-1"));   // as modes.sh --modes adaptive writes it
        Files.writeString(dir.resolve("rc-64-before-adaptive-loop-busy.txt"), "60\n");
        Files.writeString(dir.resolve("rc-64-before-adaptive-loop-event.txt"), "240\n");
        Files.writeString(dir.resolve("rtt-adaptive-64-loop.txt"),
                "transport: rdma (rxe0)\n| adaptive | loop | 64 | 4000 | 72.0 | 230.0 | 76.0 | 0.3 | 0.3 |\n");
        String table = table();
        assertTrue(table.contains("| adaptive | loop | 64 | 72.0 | 230.0 | 0.3 | 0.3 | 60 | 240 | 1.20 | 0.30 |"), table);
    }

    @Test
    void idleLoopRowsComeUnderTheirHeaderModeByModeAndAFailedRunIsNamed() throws Exception {
        String event = "| event | rdma | 1 | 0 | 10 | 0.0 / 0.0 | 0.1 / 0.0 |";
        String receiving = "| event | tcp | 1 | 1 | 10 | 0.0 / 0.0 | 0.2 / 0.1 |";
        String busy = "| busy | rdma | 1 | 0 | 10 | 950.1 / 949.7 | 470.0 / 480.0 |";
        Files.writeString(raw.resolve("idle-event-1.txt"), "transport: rdma (rxe0)\n" + IdleLoopBench.HEADER + "\n" + event + "\n");
        Files.writeString(raw.resolve("idle-event-1-receiving-tcp.txt"),
                "transport: tcp\n" + IdleLoopBench.HEADER + "\n" + receiving + "\n");
        Files.writeString(raw.resolve("idle-busy-1.txt"), "transport: rdma (rxe0)\n" + IdleLoopBench.HEADER + "\n" + busy + "\n");
        Files.writeString(raw.resolve("idle-adaptive-100.txt"), "idle-loop: no RDMA device\n");
        List<String> lines = table().lines().toList();
        int header = lines.indexOf(IdleLoopBench.HEADER.lines().findFirst().orElseThrow());
        assertTrue(header >= 0, String.join("\n", lines));
        assertEquals(List.of(IdleLoopBench.HEADER.lines().toList().get(1), busy, event, receiving),
                lines.subList(header + 1, header + 5));
        assertTrue(lines.get(header + 5).startsWith("| failed: see ") && lines.get(header + 5).contains("idle-adaptive-100.txt"),
                lines.get(header + 5));
    }

    /** One {@code tcp-vs-nio} output as it prints it: median row, row of each round's ratios, best-round row, rounds. */
    private void tcpVsNio(String file, int size, String median, String best) throws IOException {
        Files.writeString(raw.resolve(file), TcpFallbackVsNioBench.HEADER + "\n| " + size + " | " + median + " |\n\n"
                + TcpFallbackVsNioBench.RATIOS_TITLE.formatted(5) + "\n\n" + TcpFallbackVsNioBench.RATIOS_HEADER
                + "\n| " + size + " | r" + median + " |\n\n"
                + TcpFallbackVsNioBench.BEST_TITLE.formatted(5) + "\n\n" + TcpFallbackVsNioBench.HEADER + "\n| " + size
                + " | " + best + " |\n\n" + TcpFallbackVsNioBench.ROUNDS_TITLE + "\n- " + size + " B: rounds\n");
    }

    @Test
    void tcpVsNioOutputsGiveMediansBestRoundsAndRoundsSizeBySize() throws Exception {
        tcpVsNio("tcp-vs-nio-65536.txt", 65536, "m64k", "b64k");
        tcpVsNio("tcp-vs-nio-4096.txt", 4096, "m4k", "b4k");
        tcpVsNio("tcp-vs-nio-onecpu-4096.txt", 4096, "m4k1", "b4k1");
        Files.writeString(raw.resolve("tcp-vs-nio-onecpu-65536.txt"), "Error: the JVM crashed\n");
        List<String> lines = table().lines().filter(l -> !l.isEmpty() && !l.startsWith("|---")
                && !l.startsWith("| bytes |")).toList();
        assertEquals(2, table().lines().filter(TcpFallbackVsNioBench.RATIOS_HEADER.lines().findFirst().orElseThrow()::equals).count(),
                "the ratios' header once per table");
        assertEquals(List.of(
                "TCP channel vs plain NIO, free on every CPU:",
                "| 4096 | m4k |", "| 65536 | m64k |",
                TcpFallbackVsNioBench.RATIOS_TITLE.formatted(5),
                "| 4096 | rm4k |", "| 65536 | rm64k |",
                TcpFallbackVsNioBench.BEST_TITLE.formatted(5),
                "| 4096 | b4k |", "| 65536 | b64k |",
                TcpFallbackVsNioBench.ROUNDS_TITLE,
                "- 4096 B: rounds", "- 65536 B: rounds",
                "TCP channel vs plain NIO, the JVM on one CPU:",
                "| 4096 | m4k1 |", "| failed: see " + raw.resolve("tcp-vs-nio-onecpu-65536.txt") + " |",
                TcpFallbackVsNioBench.RATIOS_TITLE.formatted(5),
                "| 4096 | rm4k1 |",
                TcpFallbackVsNioBench.BEST_TITLE.formatted(5),
                "| 4096 | b4k1 |",
                TcpFallbackVsNioBench.ROUNDS_TITLE,
                "- 4096 B: rounds"), lines);
    }
}
