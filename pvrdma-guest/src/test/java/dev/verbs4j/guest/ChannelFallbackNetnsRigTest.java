package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.verbs4j.loop.CompletionLoop;
import java.io.File;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Situation (3) of the issue: a process in a network namespace that sees no RDMA device (rdma
 * netns mode exclusive) connects to one that sees rxe0; TCP is chosen automatically on both
 * sides and each says why, and why not shared memory (another network namespace). Needs the rig's no-rdma topology, selected by its own tag:
 * <pre>ci/rig run --topology no-rdma mvn -B -o -ntp -P rig -Dtest.groups=rdma-netns -pl pvrdma-guest surefire:test</pre>
 * Inside the rig with any other topology it fails instead of passing vacuously.
 */
@Tag("rdma-netns")
class ChannelFallbackNetnsRigTest {

    @Test
    void aPeerWithoutRdmaGetsTcpAutomaticallyWithTheReason() throws Exception {
        assumeTrue(System.getenv("RIG_GUEST") != null, "runs only in the rig's no-rdma topology");
        String netns = System.getenv("RIG_NETNS");
        String hostAddress = System.getenv("RIG_HOST_VETH_ADDR");
        if (netns == null || hostAddress == null) {
            fail("needs the no-rdma topology (RIG_NETNS, RIG_HOST_VETH_ADDR), got RIG_TOPOLOGY="
                    + System.getenv("RIG_TOPOLOGY"));
        }
        File log = File.createTempFile("netns-peer-", ".log");
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
             ChannelServer server = ChannelServer.listen(hostAddress, 0,
                     ChannelConfig.defaults().loop(loop).connectTimeout(ChannelPeerProcess.BOOTSTRAP_WAIT))) {
            Process peer = ChannelPeerProcess.start(List.of("ip", "netns", "exec", netns), hostAddress, server.port(),
                    TransportPreference.AUTO, CompletionMode.EVENT, 4096, "echo", log);
            try (Channel channel = server.accept(Duration.ofSeconds(120))) {
                String why = channel.transport().describe();
                assertTrue(why.startsWith("tcp (reason: peer has no RDMA device visible in its network namespace "
                        + "(netns mode exclusive); not shm: the peer is in another network namespace"), why);
                channel.send(ChannelTestBytes.pattern(5, 4000), 7).get(30, TimeUnit.SECONDS);
                ChannelMessage echo = channel.receive().get(30, TimeUnit.SECONDS);
                assertEquals(4000, echo.length());
                assertEquals(-1, ChannelTestBytes.mismatch(echo.data(), 5));
            } finally {
                assertTrue(peer.waitFor(60, TimeUnit.SECONDS), "the peer ends when the channel closes");
                peer.destroyForcibly();
            }
            String output = Files.readString(log.toPath());
            System.out.print(output);
            String peerLine = "transport: tcp (reason: no RDMA device visible in this network namespace "
                    + "(netns mode exclusive); not shm: the peer is in another network namespace";
            assertTrue(output.lines().anyMatch(l -> l.startsWith(peerLine)), output);
        } finally {
            log.delete();
        }
    }
}
