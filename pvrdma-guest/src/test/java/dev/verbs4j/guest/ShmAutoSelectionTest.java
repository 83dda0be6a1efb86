package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.guest.bootstrap.PendingChannel;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What {@code AUTO} chooses between two ends on this machine, from what each states in the
 * bootstrap exchange: shared memory between two processes (or two ends in one JVM) of one user in
 * one network namespace; RDMA or TCP, with the reason shared memory was not chosen, for a peer
 * under another uid (a child JVM started by {@code setpriv}) or in another network namespace (the
 * accepting thread enters a namespace of its own, made by {@code unshare -n}, before it sets the
 * accepted connection up: its statement and its abstract unix sockets are that namespace's). The
 * last two need root, as {@code ci/test} runs.
 */
class ShmAutoSelectionTest {
    private static final Duration WAIT = LocalAutoPeer.WAIT;
    private static final String SAME_HOST = LocalAutoPeer.SAME_HOST;
    private static final int NOBODY = LocalAutoPeer.NOBODY;

    @Test
    void twoEndsInOneJvmGetSharedMemory() throws Exception {
        try (ChannelPair pair = ChannelPair.open(ChannelConfig.defaults(), ChannelConfig.defaults())) {
            assertEquals(SAME_HOST, pair.server().transport().describe());
            assertEquals(SAME_HOST, pair.client().transport().describe());
            pair.client().send(ChannelTestBytes.pattern(3, 1000)).get(30, TimeUnit.SECONDS);
            assertEquals(-1, ChannelTestBytes.mismatch(pair.server().receive().get(30, TimeUnit.SECONDS).data(), 3));
        }
    }

    @Test
    void twoProcessesOfOneUserGetSharedMemory() throws Exception {
        LocalAutoPeer.echoesOverSharedMemory();
    }

    @Test
    void aPeerUnderAnotherUidFallsBackWithItsReason() throws Exception {
        assumeTrue(LocalAutoPeer.isRoot(), "needs root to start the peer under another uid");
        String peer = LocalAutoPeer.echoesAsNobody("not shm: the peer runs as uid " + NOBODY + ", this process as 0");
        assertTrue(peer.contains("not shm: the peer runs as uid 0, this process as " + NOBODY), peer);
    }

    @Test
    void aPeerInAnotherNetworkNamespaceFallsBackWithItsReason() throws Exception {
        assumeTrue(LocalAutoPeer.isRoot(), "needs root to enter a network namespace of its own");
        // the namespace lives while cat waits on its input; "ready" once it exists
        Process holder = new ProcessBuilder("unshare", "-n", "sh", "-c", "echo ready; exec cat").start();
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
             ChannelServer server = ChannelServer.listen("127.0.0.1", 0, ChannelConfig.defaults().loop(loop))) {
            assertEquals("ready", holder.inputReader().readLine(), "unshare -n made a namespace");
            String here = NetnsThread.currentThreadNamespace();
            Path other = Path.of("/proc", Long.toString(holder.pid()), "ns", "net");
            CompletableFuture<Channel> client = CompletableFuture.supplyAsync(() ->
                    dev.verbs4j.guest.bootstrap.ChannelConnector.connect("127.0.0.1", server.port(),
                            ChannelConfig.defaults().connectTimeout(WAIT)));
            try (PendingChannel pending = server.acceptPending(WAIT);
                 Channel accepted = NetnsThread.supply(other, () -> pending.establish(ChannelConfig.defaults()
                         .loop(loop).connectTimeout(WAIT))).get(60, TimeUnit.SECONDS);
                 Channel connected = client.get(60, TimeUnit.SECONDS)) {
                assertTrue(accepted.transport().reason().contains("not shm: the peer is in another network namespace ("
                        + here + ", here " + Files.readSymbolicLink(other) + ")"), accepted.transport().describe());
                assertTrue(connected.transport().reason().contains("not shm: the peer is in another network "
                        + "namespace"), connected.transport().describe());
                assertEquals(accepted.transport().kind(), connected.transport().kind());
                connected.send(ChannelTestBytes.pattern(4, 2000)).get(30, TimeUnit.SECONDS);
                assertEquals(-1, ChannelTestBytes.mismatch(accepted.receive().get(30, TimeUnit.SECONDS).data(), 4));
            }
        } finally {
            holder.destroyForcibly();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
