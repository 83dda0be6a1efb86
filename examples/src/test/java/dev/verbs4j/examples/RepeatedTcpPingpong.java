package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The forced-TCP pingpong of bin/verbs4j (server and client, each with its own completion loop,
 * as two processes would have), run many times in a row in one JVM: every run must end with both
 * sides done, no reset and no hang.
 */
final class RepeatedTcpPingpong {
    private RepeatedTcpPingpong() {}

    static void run(CompletionMode mode, int runs, int size, int iterations) throws Exception {
        for (int run = 0; run < runs; run++) {
            int port = freePort();
            var server = new PingpongCommand.Settings(true, null, TransportPreference.TCP, mode, size, iterations, 0,
                    port, null, -1);
            var client = new PingpongCommand.Settings(false, "127.0.0.1", TransportPreference.TCP, mode, size,
                    iterations, 0, port, null, -1);
            ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
            CompletableFuture<Integer> served = CompletableFuture.supplyAsync(
                    () -> PingpongCommand.run(server, new PrintStream(serverOut, true, StandardCharsets.UTF_8)));
            awaitListener(port, served);
            ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
            int rc = PingpongCommand.run(client, new PrintStream(clientOut, true, StandardCharsets.UTF_8));
            String said = clientOut.toString(StandardCharsets.UTF_8);
            assertEquals(0, rc, "run " + run + ": " + said);
            assertEquals(0, served.get(120, TimeUnit.SECONDS), "run " + run + " server");
            assertTrue(said.contains("latency: round trip avg"), "run " + run + ": " + said);
            assertTrue(serverOut.toString(StandardCharsets.UTF_8).contains("served " + iterations + " round trips"), // no warm-up
                    "run " + run + " server: " + serverOut);
            if (run == 0 || run == runs - 1) {
                System.out.print("run " + run + ": " + said);
            }
        }
    }

    /** Waits until the server's port is in LISTEN state (/proc/net/tcp), without connecting to it. */
    static void awaitListener(int port, CompletableFuture<Integer> served) throws IOException {
        String local = String.format(Locale.ROOT, ":%04X 00000000:0000 0A", port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.readString(Path.of("/proc/net/tcp")).contains(local)) {
            if (served.isDone() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the server never listened on port " + port + ": " + served);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
