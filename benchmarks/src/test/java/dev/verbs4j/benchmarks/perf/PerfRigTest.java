package dev.verbs4j.benchmarks.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A perf server and client in one JVM on the rig's soft-RoCE device; rows must be sane, never timed. */
@Tag("rdma")
class PerfRigTest {
    private static final String DEVICE = System.getenv().getOrDefault("RIG_DEVICE", "rxe0");
    private static final String ADDRESS = System.getenv().getOrDefault("RIG_ADDR", "127.0.0.1");

    @Test
    void sendLatencyPrintsPerftestLatencyRowsOnBothSides() throws Exception {
        String[][] out = runPair("send_lat", 18601, "-s", "64", "-n", "200");
        for (String side : out[0]) {
            String[] f = onlyRow(side, ReportFormat.LATENCY_HEADER);
            assertEquals("64", f[0]);
            assertEquals("200", f[1]);
            double min = Double.parseDouble(f[2]);
            double typical = Double.parseDouble(f[4]);
            assertTrue(min > 0 && typical >= min && Double.parseDouble(f[3]) >= typical, String.join(" ", f));
            assertEquals(9, f.length);
        }
    }

    @Test
    void writeBandwidthPrintsPerftestBandwidthRows() throws Exception {
        String[][] out = runPair("write_bw", 18602, "-s", "4096", "-n", "500", "-t", "32", "-Q", "8");
        String[] client = onlyRow(out[0][1], ReportFormat.BANDWIDTH_HEADER);
        assertEquals(5, client.length);
        assertEquals("4096", client[0]);
        assertEquals("500", client[1]);
        assertTrue(Double.parseDouble(client[2]) >= Double.parseDouble(client[3]), "peak >= average");
        assertTrue(Double.parseDouble(client[3]) > 0 && Double.parseDouble(client[4]) > 0);
        // the server measured nothing and prints the client's row, as perftest's does
        assertEquals(List.of(client), List.of(onlyRow(out[0][0], ReportFormat.BANDWIDTH_HEADER)));
    }

    @Test
    void sendBandwidthWithEventsCompletes() throws Exception {
        String[][] out = runPair("send_bw", 18603, "-s", "2", "-n", "300", "-e");
        assertEquals("2", onlyRow(out[0][1], ReportFormat.BANDWIDTH_HEADER)[0]);
        assertEquals("300", onlyRow(out[0][0], ReportFormat.BANDWIDTH_HEADER)[1]);
    }

    @Test
    void sendBandwidthWarmsUpInPassesAndTheServerReportsNoPeak() throws Exception {
        // 60 warm-up messages: passes of 25, 25 and 10; a server that took the next pass's
        // arrivals in this one would wait for messages that never come
        String[][] out = runPair("send_bw", 18604, "-s", "64", "-n", "300", "--warmup=60");
        String[] client = onlyRow(out[0][1], ReportFormat.BANDWIDTH_HEADER);
        assertEquals(List.of("64", "300"), List.of(client[0], client[1]));
        assertTrue(Double.parseDouble(client[2]) >= Double.parseDouble(client[3]), "peak >= average");
        String[] server = onlyRow(out[0][0], ReportFormat.BANDWIDTH_HEADER);
        assertEquals(List.of("64", "300", "0.00"), List.of(server[0], server[1], server[2]), String.join(" ", server));
        assertTrue(Double.parseDouble(server[3]) > 0, "server average");
    }

    @Test
    void writeLatencyWarmsUpInPasses() throws Exception {
        String[][] out = runPair("write_lat", 18605, "-s", "8", "-n", "200", "--warmup=60");
        for (String side : out[0]) {
            String[] f = onlyRow(side, ReportFormat.LATENCY_HEADER);
            assertEquals(List.of("8", "200"), List.of(f[0], f[1]));
            assertTrue(Double.parseDouble(f[2]) > 0, String.join(" ", f));
        }
    }

    /** Returns {{server output, client output}}. */
    private static String[][] runPair(String test, int port, String... options) throws Exception {
        List<String> common = new ArrayList<>(List.of(test, "-d", DEVICE, "-p", Integer.toString(port)));
        common.addAll(List.of(options));
        ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
        CompletableFuture<Void> server = CompletableFuture.runAsync(() -> new PerfCommand(
                new PrintStream(serverOut, true, StandardCharsets.UTF_8)).run(PerfOptions.parse(common.toArray(String[]::new))));
        List<String> clientArgs = new ArrayList<>(common);
        clientArgs.add(ADDRESS);
        new PerfCommand(new PrintStream(clientOut, true, StandardCharsets.UTF_8))
                .run(PerfOptions.parse(clientArgs.toArray(String[]::new)));
        server.get(120, TimeUnit.SECONDS);
        return new String[][] {{serverOut.toString(StandardCharsets.UTF_8), clientOut.toString(StandardCharsets.UTF_8)}};
    }

    private static String[] onlyRow(String output, String header) {
        String[] lines = output.split("\n");
        for (int i = 0; i < lines.length - 1; i++) {
            if (lines[i].equals(header)) {
                return lines[i + 1].trim().split("\\s+");
            }
        }
        throw new AssertionError("no report header in:\n" + output);
    }
}
