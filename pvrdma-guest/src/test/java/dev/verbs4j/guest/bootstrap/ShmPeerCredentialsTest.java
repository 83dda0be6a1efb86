package dev.verbs4j.guest.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.TransportKind;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.probe.SameHostFacts;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.unix.NativeSocket;
import dev.verbs4j.unix.UnixSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A client that states another process's pid than its own in the bootstrap hello: it can reach
 * the abstract socket (it learns the name), but the kernel's SO_PEERCRED shows who it is, and the
 * server refuses to hand the segment over: a forced shm channel fails, under AUTO the channel
 * falls back (to TCP: the client states no RDMA device) and its reason says why.
 */
class ShmPeerCredentialsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aPeerWhosePidIsNotTheOneItStatedGetsNoSegment() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.SHM).loop(loop);
            try (ChannelServer server = ChannelServer.listen("127.0.0.1", 0, config)) {
                CompletableFuture<Void> liar = CompletableFuture.runAsync(() -> lie(server.port(),
                        TransportPreference.SHM, CompletableFuture.completedFuture(null)));
                ChannelException e = assertThrows(ChannelException.class, () -> server.accept(WAIT));
                assertEquals(ChannelError.CONNECT_FAILED, e.error());
                assertTrue(e.getMessage().contains("is not the one that stated pid"), e.getMessage());
                liar.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void underAutoTheFailedSetUpFallsBackAndSaysWhy() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelConfig config = ChannelConfig.defaults().loop(loop);
            try (ChannelServer server = ChannelServer.listen("127.0.0.1", 0, config)) {
                CompletableFuture<Void> accepted = new CompletableFuture<>();
                CompletableFuture<Void> liar = CompletableFuture.runAsync(() -> lie(server.port(),
                        TransportPreference.AUTO, accepted));
                try (Channel channel = server.accept(WAIT)) {
                    accepted.complete(null);
                    String why = "; shm set-up failed: the process at the unix socket (pid "
                            + ProcessHandle.current().pid() + ", uid " + SameHostFacts.here().uid()
                            + ") is not the one that stated pid " + (ProcessHandle.current().pid() + 1) + ", uid "
                            + SameHostFacts.here().uid();
                    assertEquals(TransportKind.TCP, channel.transport().kind(), channel.transport().describe());
                    assertTrue(channel.transport().reason().endsWith(why), channel.transport().describe());
                }
                liar.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    /**
     * The bootstrap exchange as a client whose hello names a pid one above its own (the server then
     * creates), up to the server's refusal; the connection stays open until {@code hold} completes.
     */
    private static void lie(int port, TransportPreference preference, CompletableFuture<Void> hold) {
        SameHostFacts here = SameHostFacts.here();
        SameHostFacts stated = new SameHostFacts(here.bootId(), here.netns(), here.uid(), here.pid() + 1);
        try (NativeSocket socket = NativeSocket.connect("127.0.0.1", port, WAIT)) {
            BootstrapStreams streams = new BootstrapStreams(socket, WAIT);
            streams.send(new BootstrapHello(preference, 64 * 1024, 32,
                    Capabilities.lacking(CapabilitiesGap.NO_DEVICE, ""), stated)::writeTo);
            BootstrapHello.readFrom(streams.in);
            assertEquals(null, streams.readOutcome(), "the server listens");
            String name = streams.in.readUTF();
            try (UnixSocket unix = UnixSocket.connectAbstract(name, WAIT)) {
                streams.sendOutcome(null);
                streams.sendOutcome(null);
                assertTrue(streams.readOutcome().contains("is not the one that stated"), "the server says why");
                hold.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
