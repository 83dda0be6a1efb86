package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.guest.bootstrap.HandshakePeerProcess;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.rig.RdmaCgroupLimit;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every way an RDMA channel can end, failing ones included, gives back all it took: the kernel's
 * counts of PDs, CQs, QPs, MRs and contexts ({@code rdma resource show}) and this JVM's verbs file
 * descriptors are the same after as before. RDMA is forced, so no case hides in a TCP fallback.
 */
@Tag("rdma")
class RdmaChannelLeakRigTest {
    private static final String HOST = "127.0.0.1";
    private static final String DEVICE = System.getenv().getOrDefault("RIG_DEVICE", "rxe0");
    private static final int MAX_MESSAGE = 4096;
    private static final Duration WAIT = Duration.ofSeconds(60);
    /**
     * Open/close cycles (both ends in this JVM, each on its own loop); -Dleak.cycles=N to change.
     * In the emulated rig 500 cycles take about 25 s.
     */
    private static final int CYCLES = Integer.getInteger("leak.cycles", 500);

    private RdmaResourceCounts before;

    @BeforeEach
    void countBefore() throws Exception {
        before = RdmaResourceCounts.now();
    }

    private static ChannelConfig rdma() {
        return ChannelConfig.defaults().transport(TransportPreference.RDMA).device(DEVICE).maxMessageSize(MAX_MESSAGE)
                .receiveDepth(16).sendQueueDepth(16).connectTimeout(WAIT);
    }

    private void assertNothingLeft() throws Exception {
        RdmaResourceCounts after = RdmaResourceCounts.now();
        assertTrue(after.sameAs(before), "before " + before + "\nafter  " + after);
    }

    @Test
    void connectingToAPortWithNoListener() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort(); // free once closed: nothing listens there
        }
        ChannelException e = assertThrows(ChannelException.class, () -> ChannelConnector.connect(HOST, port, rdma()));
        assertEquals(ChannelError.CONNECT_FAILED, e.error());
        assertNothingLeft();
    }

    /** The peer dies after the hellos, or after both sides sent their QP endpoints (this side has a QP then). */
    @ParameterizedTest
    @ValueSource(strings = {"hello", "endpoint"})
    void thePeerKilledDuringTheHandshake(String point) throws Exception {
        try (ChannelServer listener = ChannelServer.listen(HOST, 0, rdma())) {
            CompletableFuture<Channel> accepted = CompletableFuture.supplyAsync(() -> listener.accept(WAIT));
            Process peer = HandshakePeerProcess.start(HOST, listener.port(), DEVICE, -1, MAX_MESSAGE, point);
            try {
                awaitLine(peer, "at " + point);
            } finally {
                peer.destroyForcibly();
                assertTrue(peer.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> accepted.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(ChannelError.CONNECT_FAILED, assertInstanceOf(ChannelException.class, e.getCause()).error());
        }
        assertNothingLeft();
    }

    /**
     * The rdma cgroup controller (a container's limit) allows three verbs objects where each end
     * needs five or more: both ends fail with the reason, which names the cgroup's rdma.max and
     * how to raise it, and give back every object (rdma.current and the device's counts).
     */
    @Test
    void aChannelOverTheRdmaCgroupLimitFailsWithItsReasonOnBothEnds() throws Exception {
        String limit = DEVICE + " hca_handle=max hca_object=3";
        try (RdmaCgroupLimit cgroup = RdmaCgroupLimit.enter("verbs4j-channel-limit", limit);
             ChannelServer listener = ChannelServer.listen(HOST, 0, rdma())) {
            CompletableFuture<Channel> accepted = CompletableFuture.supplyAsync(() -> listener.accept(WAIT));
            ChannelException client = assertThrows(ChannelException.class,
                    () -> ChannelConnector.connect(HOST, listener.port(), rdma()));
            ExecutionException server = assertThrows(ExecutionException.class,
                    () -> accepted.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            for (ChannelException e : List.of(client, assertInstanceOf(ChannelException.class, server.getCause()))) {
                assertEquals(ChannelError.CONNECT_FAILED, e.error());
                assertTrue(e.getMessage().contains("the rdma cgroup controller refused the charge")
                        && e.getMessage().contains(cgroup.rdmaMax() + " says '" + limit + "'")
                        && e.getMessage().contains("raise it by writing"), e.getMessage());
            }
            System.out.println(client.getMessage());
            // each end's own loop closes its device as the connect fails: bounded wait, no fixed sleep
            String zero = DEVICE + " hca_handle=0 hca_object=0";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!cgroup.current().equals(zero) && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
            }
            assertEquals(zero, cgroup.current(), "every charge given back");
        }
        assertNothingLeft();
    }

    @Test
    void thePeerKilledMidStream() throws Exception {
        try (ChannelServer listener = ChannelServer.listen(HOST, 0, rdma())) {
            Process peer = ChannelPeerProcess.start(HOST, listener.port(), rdma(), "stream");
            try (Channel channel = listener.accept(WAIT)) {
                assertEquals(TransportKind.RDMA, channel.transport().kind());
                for (int i = 0; i < 20; i++) {
                    ChannelMessage m = channel.receive().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    assertEquals(-1, ChannelTestBytes.mismatch(m.data(), i), "message " + i);
                }
                peer.destroyForcibly();
                assertTrue(peer.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS));
                ChannelException end = drainUntilEnd(channel);
                assertEquals(ChannelError.PEER_LOST, end.error(), end.getMessage());
            } finally {
                peer.destroyForcibly();
            }
        }
        assertNothingLeft();
    }

    @Test
    void openAndCloseManyTimes() throws Exception {
        long start = System.nanoTime();
        try (CompletionLoop serverLoop = CompletionLoop.start(CompletionMode.EVENT);
             CompletionLoop clientLoop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelConfig server = rdma().loop(serverLoop);
            ChannelConfig client = rdma().loop(clientLoop);
            try (ChannelServer listener = ChannelServer.listen(HOST, 0, server)) {
                for (int i = 0; i < CYCLES; i++) {
                    CompletableFuture<Channel> connecting = CompletableFuture.supplyAsync(
                            () -> ChannelConnector.connect(HOST, listener.port(), client));
                    try (Channel accepted = listener.accept(WAIT);
                         Channel connected = connecting.get(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                        assertEquals(TransportKind.RDMA, accepted.transport().kind());
                        assertEquals(TransportKind.RDMA, connected.transport().kind());
                    }
                }
            }
        }
        System.out.printf("%d RDMA channel open/close cycles in %.1f s%n", CYCLES, (System.nanoTime() - start) / 1e9);
        assertNothingLeft();
    }

    /** Takes what is still queued; returns how the channel ended. */
    private static ChannelException drainUntilEnd(Channel channel) throws Exception {
        while (true) {
            try {
                channel.receive().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                return assertInstanceOf(ChannelException.class, e.getCause());
            }
        }
    }

    private static void awaitLine(Process peer, String expected) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line; (line = out.readLine()) != null; ) {
            if (line.equals(expected)) {
                return;
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("the peer ended before printing '" + expected + "':\n" + seen);
    }
}
