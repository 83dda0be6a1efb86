package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.guest.bootstrap.PendingChannel;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.verbs4j.verbs.Verbs;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The bootstrap exchange on a host without RDMA: TCP with no set-up at all, and forced RDMA refused
 * (what AUTO chooses between two ends on one machine: {@link ShmAutoSelectionTest}).
 */
class ChannelBootstrapTest {

    @Test
    void withoutADeviceForcedTcpSaysItWasForced() throws Exception {
        assumeTrue(Verbs.devices().isEmpty(), "this host has an RDMA device");
        ChannelConfig tcp = ChannelConfig.defaults().transport(TransportPreference.TCP);
        try (ChannelPair pair = ChannelPair.open(tcp, ChannelConfig.defaults())) {
            assertEquals("tcp (reason: forced by configuration)", pair.server().transport().describe());
            assertEquals("tcp (reason: forced by the peer's configuration)", pair.client().transport().describe());
        }
    }

    @Test
    void forcedRdmaWithoutADeviceFailsOnBothSides() throws Exception {
        assumeTrue(Verbs.devices().isEmpty(), "this host has an RDMA device");
        ChannelConfig rdma = ChannelConfig.defaults().transport(TransportPreference.RDMA);
        try (ChannelServer listener = ChannelServer.listen("127.0.0.1", 0, ChannelConfig.defaults())) {
            CompletableFuture<Channel> client = CompletableFuture.supplyAsync(
                    () -> ChannelConnector.connect("127.0.0.1", listener.port(), rdma));
            ChannelException server = assertThrows(ChannelException.class, () -> listener.accept(Duration.ofSeconds(30)));
            assertEquals(ChannelError.CONNECT_FAILED, server.error());
            ExecutionException e = assertThrows(ExecutionException.class, () -> client.get(30, TimeUnit.SECONDS));
            assertEquals(ChannelError.CONNECT_FAILED, ((ChannelException) e.getCause()).error());
        }
    }

    @Test
    void aPendingConnectionIsSetUpLaterWithTheConfigurationGivenThen() throws Exception {
        ChannelConfig tcp = ChannelConfig.defaults().transport(TransportPreference.TCP);
        try (CompletionLoop chosenLater = CompletionLoop.start(CompletionMode.EVENT);
             ChannelServer listener = ChannelServer.listen("127.0.0.1", 0, tcp)) {
            CompletableFuture<Channel> client = CompletableFuture.supplyAsync(
                    () -> ChannelConnector.connect("127.0.0.1", listener.port(), tcp));
            try (PendingChannel pending = listener.acceptPending(Duration.ofSeconds(30));
                 Channel server = pending.establish(ChannelConfig.defaults().transport(TransportPreference.TCP)
                         .loop(chosenLater));
                 Channel connected = client.get(30, TimeUnit.SECONDS)) {
                assertEquals(connected.localAddress(), pending.remoteAddress());
                assertEquals(server.localAddress(), pending.localAddress());
                assertThrows(ChannelException.class, () -> pending.establish(tcp), "set up once only");
                CompletableFuture<Boolean> ranOnTheLoopGiven = new CompletableFuture<>();
                server.setListener((channel, message) -> ranOnTheLoopGiven.complete(chosenLater.inLoop()));
                connected.send(ChannelTestBytes.pattern(1, 16)).get(30, TimeUnit.SECONDS);
                assertEquals(true, ranOnTheLoopGiven.get(30, TimeUnit.SECONDS));
            }
        }
    }

    /**
     * A server that takes the connection and never states its hello (a wedged or foreign process
     * on the port): the client gives up within its connect time-out, not after a wait of its own.
     */
    @Test
    void aServerThatNeverAnswersFailsTheConnectWithinItsTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.TCP)
                    .connectTimeout(Duration.ofSeconds(1));
            ChannelException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThrows(
                    ChannelException.class, () -> ChannelConnector.connect("127.0.0.1", silent.getLocalPort(), config)));
            assertEquals(ChannelError.CONNECT_FAILED, e.error());
            assertTrue(e.getMessage().contains("within PT1S"), e.getMessage());
        }
    }

    @Test
    void nothingListeningIsAConnectFailure() {
        ChannelException e = assertThrows(ChannelException.class, () -> ChannelConnector.connect("127.0.0.1", 1,
                ChannelConfig.defaults().connectTimeout(Duration.ofSeconds(2))));
        assertEquals(ChannelError.CONNECT_FAILED, e.error());
    }
}
