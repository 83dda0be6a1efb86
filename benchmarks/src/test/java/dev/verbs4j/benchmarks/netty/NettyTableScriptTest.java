package dev.verbs4j.benchmarks.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * benchmarks/netty-table.sh over netty.sh's rows: each of our columns over NIO and over the
 * rdma-core floor measured next to it (busy beside ADAPTIVE, -e beside EVENT, ib_send_bw beside the
 * stream), the floor's own
 * ratio to NIO, each target the floor already misses said under the table, missing cells as "—"
 * and failed runs named.
 */
class NettyTableScriptTest {
    private static final String NIO = """
            floor nio 64 busy 60
            floor nio 64 event 400
            echo nio 64 250.0 900.0
            echo nio 4096 300.0 1000.0
            stream nio 65536 120.0
            grpc nio 64 2000.0 5000.0
            """;
    private static final String ADAPTIVE = """
            # verbs4j-rdma/adaptive carried by rdma (rxe0)
            floor verbs4j-rdma/adaptive 64 busy 50
            floor verbs4j-rdma/adaptive 64 event 390
            echo verbs4j-rdma/adaptive 64 100.0 400.0
            echo verbs4j-rdma/adaptive 4096 200.0 800.0
            stream verbs4j-rdma/adaptive 65536 60.0
            grpc verbs4j-rdma/adaptive 64 1500.0 3000.0
            """;
    private static final String EVENT = """
            floor verbs4j-rdma/event 64 busy 55
            floor verbs4j-rdma/event 64 event %s
            echo verbs4j-rdma/event 64 600.0 1400.0
            grpc verbs4j-rdma/event 64 1800.0 4000.0
            """;

    @TempDir
    Path dir;

    private String table(String rows) throws Exception {
        Path file = Files.writeString(dir.resolve("rows.txt"), rows);
        Process p = new ProcessBuilder("bash", Path.of("netty-table.sh").toAbsolutePath().toString(), file.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private static String row(String table, String start) {
        List<String> rows = table.lines().filter(l -> l.startsWith("| " + start + " |")).toList();
        assertEquals(1, rows.size(), table);
        return rows.getFirst();
    }

    @Test
    void oursIsHeldAgainstNioAndTheFloorMeasuredBesideIt() throws Exception {
        String table = table(NIO + ADAPTIVE + EVENT.formatted("410"));
        assertEquals("| row | NIO p50 / p99 | verbs4j-rdma ADAPTIVE p50 / p99 | × NIO | × rdma-core "
                + "| verbs4j-rdma EVENT p50 / p99 | × NIO | × rdma-core |", table.lines().findFirst().orElseThrow());
        // 100 / 250 and 100 / 50 (busy beside ADAPTIVE); 600 / 250 and 600 / 410 (-e beside EVENT)
        assertEquals("| echo 64 B round trip (µs) | 250.0 / 900.0 | 100.0 / 400.0 | 0.40 | 2.00 "
                + "| 600.0 / 1400.0 | 2.40 | 1.46 |", row(table, "echo 64 B round trip (µs)"));
        assertEquals("| rdma-core floor 64 B (µs/iter; NIO column: busy / -e) | 60 / 400 | 50 (busy) | 0.20 | — "
                + "| 410 (-e) | 1.64 | — |", row(table, "rdma-core floor 64 B (µs/iter; NIO column: busy / -e)"));
        // nothing of EVENT's at 4 KiB or in the stream, no floor at 4 KiB but NIO's
        assertEquals("| echo 4096 B round trip (µs) | 300.0 / 1000.0 | 200.0 / 800.0 | 0.67 | — | — | — | — |",
                row(table, "echo 4096 B round trip (µs)"));
        assertEquals("| stream, 64 KiB writes (MB/s) | 120.0 | 60.0 | 0.50 | — | — | — | — |",
                row(table, "stream, 64 KiB writes (MB/s)"));
        assertEquals("| gRPC unary 64 B round trip (µs) | 2000.0 / 5000.0 | 1500.0 / 3000.0 | 0.75 | 30.00 "
                + "| 1800.0 / 4000.0 | 0.90 | 4.39 |", row(table, "gRPC unary 64 B round trip (µs)"));
        assertTrue(table.contains("Connections: verbs4j-rdma/adaptive carried by rdma (rxe0)."), table);
    }

    @Test
    void aTargetTheFloorAlreadyMissesIsSaidPlainly() throws Exception {
        String missed = table(NIO + ADAPTIVE + EVENT.formatted("410"));
        assertTrue(missed.contains("- echo 64 B, verbs4j-rdma EVENT: the target (≤ 1.0 × NIO = 250.0 µs) is below"
                + " rdma-core's own floor on this device: ibv_rc_pingpong -e took 410 µs/iter."), missed);
        assertEquals(1, missed.lines().filter(l -> l.startsWith("- ")).count(), missed); // ADAPTIVE's 50 ≤ 0.5 × 250
        String reachable = table(NIO + ADAPTIVE + EVENT.formatted("240"));
        assertFalse(reachable.lines().anyMatch(l -> l.startsWith("- ")), reachable);
    }

    @Test
    void theStreamIsHeldAgainstIbSendBwAndATargetAboveItIsSaid() throws Exception {
        String table = table(NIO + "floor nio 65536 bw 130.0\n" + ADAPTIVE + "floor verbs4j-rdma/adaptive 65536 bw 90.0\n");
        // 60 / 120 and 60 / 90; the floor's own 90 / 120
        assertEquals("| stream, 64 KiB writes (MB/s) | 120.0 | 60.0 | 0.50 | 0.67 |",
                row(table, "stream, 64 KiB writes (MB/s)"));
        assertEquals("| rdma-core floor 64 KiB (ib_send_bw MB/s) | 130.0 | 90.0 | 0.75 | — |",
                row(table, "rdma-core floor 64 KiB (ib_send_bw MB/s)"));
        assertTrue(table.contains("- stream, verbs4j-rdma ADAPTIVE: the target (≥ 1.0 × NIO = 120.0 MB/s) is above"
                + " rdma-core's own floor on this device: ib_send_bw -s 65536 made 90.0 MB/s."), table);
        String reachable = table(NIO + ADAPTIVE + "floor verbs4j-rdma/adaptive 65536 bw 150.0\n");
        assertFalse(reachable.contains("- stream"), reachable);
    }

    @Test
    void withoutFloorsTheTableSaysSoAndJmhsLabelsAddNoColumn() throws Exception {
        String table = table("""
                echo nio 64 250.0 900.0
                echo verbs4j-tcp/event 64 200.0 700.0
                gc nio 64 359.123 43.2
                gc verbs4j-tcp/adaptive 64 241.5 58.4
                """);
        assertEquals("| row | NIO p50 / p99 | verbs4j-tcp EVENT p50 / p99 | × NIO | × rdma-core |",
                table.lines().findFirst().orElseThrow());
        assertEquals("| echo 64 B round trip (µs) | 250.0 / 900.0 | 200.0 / 700.0 | 0.80 | — |",
                row(table, "echo 64 B round trip (µs)"));
        assertFalse(table.contains("| rdma-core floor"), table);
        assertTrue(table.contains("rdma-core floor: not measured"), table);
        assertTrue(table.contains("bytes allocated per round trip: NIO 359 ± 43; verbs4j-tcp ADAPTIVE 242 ± 58 (0.67 × NIO)"),
                table);
    }

    @Test
    void aColumnWhoseRunsFailedStaysAndTheRunsAreNamed() throws Exception {
        String table = table("""
                column nio
                column verbs4j-rdma/event
                echo nio 64 250.0 900.0
                failed echo-verbs4j-rdma-event
                failed grpc-verbs4j-rdma-event
                """);
        assertEquals("| echo 64 B round trip (µs) | 250.0 / 900.0 | — | — | — |", row(table, "echo 64 B round trip (µs)"));
        assertTrue(table.contains("Failed runs (their raw outputs name the cause): echo-verbs4j-rdma-event, "
                + "grpc-verbs4j-rdma-event."), table);
    }
}
