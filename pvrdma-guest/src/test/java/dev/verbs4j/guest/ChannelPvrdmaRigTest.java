package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.verbs.RemoteRegion;
import java.io.File;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Channel API between a JVM on a real vmw_pvrdma device and one on rxe0: the rig's pvrdma
 * topology, this JVM in L1 on rxe0, the peer in the L2 guest ({@code rig-l2}) on vmw_pvrdma0, whose
 * emulation (QEMU's pvrdma, backed by rxe0) re-posts every work request of L2 as a plain SEND and
 * hands L2 a received immediate without its value. The channel finds that out in its connect probe
 * and stays on RDMA with plain sends only: every message arrives byte-exact both ways in EVENT
 * mode (where L2's sends, no longer solicited, must still wake L1's loop), and what would arrive
 * altered (immediate data, RDMA WRITE and READ) is refused on both ends with the reason.
 * <p>
 * <pre>ci/rig run --topology pvrdma mvn -B -o -ntp -P rig -pl pvrdma-guest surefire:test -Dtest.groups=rdma-pvrdma -Dtest.excludedGroups=none</pre>
 */
@Tag("rdma-pvrdma")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ChannelPvrdmaRigTest {
    private static final int MAX_MESSAGE = 4096;
    /** L1's end of the TCP path to L2 (the tap l2tcp): where the peer in L2 connects. */
    private static final String L1_TCP_ADDRESS = "10.76.0.1";
    /** A JVM in the nested guest starts in minutes rather than seconds. */
    private static final Duration PEER_START = Duration.ofSeconds(400);

    @Test
    void plainSendsCarryEveryMessageExactlyAndTheRestIsRefusedWithTheReason() throws Exception {
        String l1Gid = System.getenv("RIG_GID_INDEX");
        String l2Gid = System.getenv("RIG_L2_GID_INDEX");
        assertTrue(l1Gid != null && l2Gid != null, "run in the rig's pvrdma topology (RIG_GID_INDEX, RIG_L2_GID_INDEX)");
        File log = File.createTempFile("pvrdma-peer-", ".log");
        log.deleteOnExit();
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelConfig here = ChannelConfig.defaults().transport(TransportPreference.RDMA).mode(CompletionMode.EVENT)
                    .maxMessageSize(MAX_MESSAGE).device("rxe0").gidIndex(Integer.parseInt(l1Gid))
                    .connectTimeout(Duration.ofSeconds(180)).loop(loop);
            ChannelConfig there = ChannelConfig.defaults().transport(TransportPreference.RDMA).mode(CompletionMode.EVENT)
                    .maxMessageSize(MAX_MESSAGE).device("vmw_pvrdma0").gidIndex(Integer.parseInt(l2Gid));
            Process peer = null;
            try (ChannelServer listener = ChannelServer.listen(L1_TCP_ADDRESS, 0, here)) {
                peer = ChannelPeerProcess.start(List.of("rig-l2"), L1_TCP_ADDRESS, listener.port(), there, "refusals",
                        log);
                try (Channel channel = listener.accept(PEER_START)) {
                    String reason = channel.transport().reason();
                    System.out.println("L1 end: " + channel.transport().describe() + " (" + reason + ")");
                    assertTrue(channel.transport().describe().startsWith("rdma (rxe0"), channel.transport().describe());
                    assertTrue(reason.contains("immediate data from this side arrives altered"), reason);

                    ChannelException immediate = assertThrows(ChannelException.class,
                            () -> channel.send(MemorySegment.ofArray(new byte[8]), 7));
                    assertEquals(ChannelError.UNSUPPORTED, immediate.error(), immediate.getMessage());
                    try (RegisteredRegion local = channel.register(64)) {
                        RemoteRegion anywhere = new RemoteRegion(0, 0, 64);
                        ChannelException write = assertThrows(ChannelException.class,
                                () -> channel.write(local, 0, anywhere, 0, 64));
                        assertEquals(ChannelError.UNSUPPORTED, write.error(), write.getMessage());
                        ChannelException read = assertThrows(ChannelException.class,
                                () -> channel.read(local, 0, anywhere, 0, 64));
                        assertEquals(ChannelError.UNSUPPORTED, read.error(), read.getMessage());
                    }

                    ChannelTestBytes.assertEchoes(channel, 200, MAX_MESSAGE);
                }
                assertTrue(peer.waitFor(120, TimeUnit.SECONDS), "the peer ends with the channel");
                String out = Files.readString(log.toPath());
                System.out.println("L2 peer:\n" + out);
                assertTrue(out.contains("transport: rdma (vmw_pvrdma0"), "the L2 end runs over RDMA on vmw_pvrdma0:\n" + out);
                assertTrue(out.contains("immediate: UNSUPPORTED: this path delivers this side's sends as plain SENDs"),
                        "L2 refuses immediate data:\n" + out);
                assertTrue(out.contains("write: UNSUPPORTED: this path turns this side's RDMA WRITE and READ into plain"
                        + " SENDs"), "L2 refuses RDMA WRITE:\n" + out);
                assertTrue(out.contains("ended: "), "the L2 end saw the channel end:\n" + out);
            } finally {
                if (peer != null) {
                    peer.destroyForcibly();
                }
            }
        }
    }
}
