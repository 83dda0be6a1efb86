package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.Ports;
import dev.verbs4j.rig.RigEnvironment;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A pingpong server whose client comes late: for every completion mode, over RDMA and over TCP,
 * the server listens (its loop running, spinning in BUSY) for a minute before its client
 * connects, and then both sides finish the whole pingpong. A BUSY server that had waited that
 * long once broke its session (the client saw PEER_LOST, the server hung).
 * All six servers wait through the same minute, so the test costs one wait, not six.
 */
@Tag("rdma")
class LateClientRigTest {
    /** The stimulus under test, not a synchronisation: the servers are known to listen before it starts. */
    private static final Duration CLIENT_COMES_AFTER = Duration.ofSeconds(61);
    private static final int SIZE = 4096, ITERATIONS = 100;

    private record Server(CompletionMode mode, TransportPreference transport, int port,
                          CompletableFuture<Integer> served, ByteArrayOutputStream out) {
        String name() {
            return mode.label() + "/" + transport.name().toLowerCase(Locale.ROOT);
        }
    }

    @Test
    void everyModeServesAClientThatComesAMinuteLate() throws Exception {
        String address = RigEnvironment.current().address();
        List<Server> servers = new ArrayList<>();
        for (CompletionMode mode : CompletionMode.values()) {
            for (TransportPreference transport : List.of(TransportPreference.RDMA, TransportPreference.TCP)) {
                servers.add(startServer(mode, transport, Ports.next()));
            }
        }
        for (Server s : servers) {
            RepeatedTcpPingpong.awaitListener(s.port(), s.served());
        }
        long clientsFrom = System.nanoTime() + CLIENT_COMES_AFTER.toNanos();
        while (System.nanoTime() < clientsFrom) {
            LockSupport.parkNanos(clientsFrom - System.nanoTime());
        }
        for (Server s : servers) {
            assertFalse(s.served().isDone(), s.name() + " server ended before its client came: " + s.out());
            var client = new PingpongCommand.Settings(false, address, s.transport(), s.mode(), SIZE, ITERATIONS, 0,
                    s.port(), null, -1);
            ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
            int rc = PingpongCommand.run(client, new PrintStream(clientOut, true, StandardCharsets.UTF_8));
            String said = clientOut.toString(StandardCharsets.UTF_8);
            assertEquals(0, rc, s.name() + " client: " + said);
            assertTrue(said.contains("latency: round trip avg"), s.name() + " client: " + said);
            assertEquals(0, s.served().get(Peer.PROCESS_SECONDS, TimeUnit.SECONDS), s.name() + " server: " + s.out());
            assertTrue(s.out().toString(StandardCharsets.UTF_8).contains("served " + ITERATIONS + " round trips"),
                    s.name() + " server: " + s.out());
            System.out.print(s.name() + ", client came after " + CLIENT_COMES_AFTER.toSeconds() + " s: " + said);
        }
    }

    private static Server startServer(CompletionMode mode, TransportPreference transport, int port) {
        var settings = new PingpongCommand.Settings(true, null, transport, mode, SIZE, ITERATIONS, 0, port, null, -1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompletableFuture<Integer> served = CompletableFuture.supplyAsync(
                () -> PingpongCommand.run(settings, new PrintStream(out, true, StandardCharsets.UTF_8)),
                runnable -> Thread.ofPlatform().daemon().name("late-client-server-" + port).start(runnable));
        return new Server(mode, transport, port, served, out);
    }
}
