package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** bin/verbs4j pingpong between two ends on this host: the transport with its reason first, then the numbers. */
class PingpongCommandTest {

    @Test
    void runsOnSharedMemoryAndSaysWhyFirst() throws Exception {
        runs(TransportPreference.AUTO, "transport: shm (reason: both processes on one kernel, in one network "
                + "namespace, under one user)");
    }

    @Test
    void runsOnTcpWhenToldAndSaysSoFirst() throws Exception {
        runs(TransportPreference.TCP, "transport: tcp (reason: forced by configuration)");
    }

    private static void runs(TransportPreference transport, String expectedFirst) throws Exception {
        for (CompletionMode mode : CompletionMode.values()) {
            int port = freePort();
            var server = new PingpongCommand.Settings(true, null, transport, mode, 1024, 200, 30, port, null, -1);
            var client = new PingpongCommand.Settings(false, "127.0.0.1", transport, mode, 1024, 200, 30, port, null,
                    -1);
            ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
            CompletableFuture<Integer> served = CompletableFuture.supplyAsync(
                    () -> PingpongCommand.run(server, new PrintStream(serverOut, true, StandardCharsets.UTF_8)));
            ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
            int rc = -1;
            for (int attempt = 0; attempt < 50 && rc < 0; attempt++) {
                try {
                    rc = PingpongCommand.run(client, new PrintStream(clientOut, true, StandardCharsets.UTF_8));
                } catch (RuntimeException notListeningYet) {
                    Thread.sleep(100);
                }
            }
            assertEquals(0, rc);
            assertEquals(0, served.get(60, TimeUnit.SECONDS));
            String[] lines = clientOut.toString(StandardCharsets.UTF_8).split("\n");
            System.out.print(clientOut.toString(StandardCharsets.UTF_8));
            assertEquals(expectedFirst, lines[0]);
            assertTrue(lines[1].matches("cold: first round trip \\d+\\.\\d\\d us"), lines[1]);
            assertTrue(lines[2].matches("warm-up: 30 round trips, \\d+\\.\\d\\d s, not counted"), lines[2]);
            assertTrue(lines[3].startsWith("mode: " + mode.label() + ", 1024 bytes, 200 iterations"), lines[3]);
            assertTrue(lines[4].startsWith("latency: round trip avg "), lines[4]);
            assertTrue(lines[5].startsWith("throughput: "), lines[5]);
            String serverFirst = serverOut.toString(StandardCharsets.UTF_8).split("\n")[0];
            assertEquals(expectedFirst, serverFirst);
            assertTrue(serverOut.toString(StandardCharsets.UTF_8).contains("served 230 round trips"), serverOut.toString());
        }
    }

    @Test
    void parsesTheOptions() {
        var s = PingpongCommand.parse(new String[] {"host1", "--transport", "tcp", "--mode", "busy", "-s", "64",
                "-n", "5", "--warmup", "7", "-p", "9999", "-d", "rxe0", "-g", "1"});
        assertEquals(new PingpongCommand.Settings(false, "host1", TransportPreference.TCP, CompletionMode.BUSY_POLL, 64,
                5, 7, 9999, "rxe0", 1), s);
        assertEquals(2000, PingpongCommand.parse(new String[] {"host1"}).warmup(), "the default warm-up");
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
