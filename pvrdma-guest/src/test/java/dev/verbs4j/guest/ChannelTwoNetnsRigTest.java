package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.verbs.NetworkNamespace;
import java.io.File;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Channel API between the namespaces nsa and nsb: this JVM listens and accepts on a thread
 * that joined nsa, the peer is another JVM started with {@code ip netns exec nsb}. Both ends run
 * over RDMA (the channel's own TCP bootstrap, no rdma_cm), the echoed bytes are exact, and the
 * RoCE frames cross the veth. In shared mode every device is visible everywhere: once each end
 * names its namespace's device, once each end picks by itself (the device whose GID is on an
 * interface of its namespace). In exclusive mode each end sees only its own and picks it by itself.
 * <p>
 * <pre>ci/rig run --topology two-netns mvn -B -o -ntp -P rig -pl pvrdma-guest surefire:test -Dtest.groups=rdma-two-netns -Dtest.excludedGroups=none</pre>
 */
@Tag("rdma-two-netns")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ChannelTwoNetnsRigTest {
    private static final int MAX_MESSAGE = 16 * 1024;
    private static final String NOT_SHM = "not shm: the peer is in another network namespace";

    private static ChannelConfig config(NetnsPair rig, int side, boolean nameDevice, TransportPreference transport) {
        ChannelConfig c = ChannelConfig.defaults().transport(transport).maxMessageSize(MAX_MESSAGE)
                .connectTimeout(Duration.ofSeconds(60));
        return rig.exclusive() || !nameDevice ? c : c.device(rig.devices()[side]).gidIndex(rig.gidIndex());
    }

    @Test
    void echoAcrossTheNamespacesOverRdmaIsByteExact() throws Exception {
        echo(true, TransportPreference.RDMA);
    }

    /** Nothing named: in shared mode nsa must not take rxe0 (visible, but its interface is not in nsa). */
    @Test
    void eachEndPicksTheDeviceOfItsOwnNamespaceByItself() throws Exception {
        echo(false, TransportPreference.RDMA);
    }

    /**
     * AUTO on both ends: one kernel and one user, but two network namespaces, so no shared memory
     * (its abstract unix socket would not reach across) and RDMA, each end saying why not shm.
     * This is where the rig shows AUTO choosing RDMA between two processes: the two-hosts topology
     * emulates two hosts with rxe1 and rxe2, but both addresses are in one namespace of one kernel,
     * and there AUTO rightly shares memory; RDMA there is tested forced
     * (RdmaChannelConformanceTwoHostsRigTest).
     */
    @Test
    void autoChoosesRdmaAcrossTheNamespacesAndSaysWhyNotShm() throws Exception {
        echo(false, TransportPreference.AUTO);
    }

    private static void echo(boolean nameDevices, TransportPreference transport) throws Exception {
        NetnsPair rig = NetnsPair.fromRig();
        File log = File.createTempFile("two-netns-peer-", ".log");
        log.deleteOnExit();
        try (NetworkNamespace nsa = NetworkNamespace.open(rig.namespaces()[0]);
             CompletionLoop loop = CompletionLoop.start(CompletionMode.BUSY_POLL)) {
            ChannelConfig here = config(rig, 0, nameDevices, transport).loop(loop);
            ChannelServer listener = nsa.call(() -> ChannelServer.listen(rig.addresses()[0], 0, here));
            Process peer = null;
            try (listener) {
                long[] n0Before = NetnsPair.packets(nsa, NetnsPair.veth(0));
                peer = ChannelPeerProcess.start(List.of("ip", "netns", "exec", rig.namespaces()[1]),
                        rig.addresses()[0], listener.port(), config(rig, 1, nameDevices, transport).mode(CompletionMode.BUSY_POLL), "echo", log);
                // accepting probes the device: in exclusive mode only a thread of nsa sees rxea
                try (Channel channel = nsa.call(() -> listener.accept(Duration.ofSeconds(120)))) {
                    String described = channel.transport().describe();
                    System.out.println("nsa end: " + described + " (" + channel.transport().reason() + ")");
                    assertTrue(described.startsWith("rdma"), described);
                    if (transport == TransportPreference.AUTO) {
                        assertTrue(channel.transport().reason().contains(NOT_SHM), channel.transport().reason());
                    }
                    assertTrue(described.contains(rig.devices()[0]), "nsa's end runs on " + rig.devices()[0] + ": "
                            + described);
                    int messages = 64;
                    ChannelTestBytes.assertEchoes(channel, messages, MAX_MESSAGE);
                    long[] n0After = NetnsPair.packets(nsa, NetnsPair.veth(0));
                    System.out.printf("n0 (nsa) rx +%d tx +%d for %d echoes%n", n0After[0] - n0Before[0],
                            n0After[1] - n0Before[1], messages);
                    assertTrue(n0After[0] - n0Before[0] >= messages && n0After[1] - n0Before[1] >= messages,
                            "the messages crossed the veth both ways");
                }
                assertTrue(peer.waitFor(60, TimeUnit.SECONDS), "the peer ends with the channel");
                String out = Files.readString(log.toPath());
                System.out.println("nsb peer: " + out.lines().filter(l -> l.startsWith("transport") || l.startsWith("ended"))
                        .toList());
                assertTrue(out.contains("transport: rdma"), "the nsb end runs over RDMA too:\n" + out);
                assertTrue(out.contains(rig.devices()[1]), "the nsb end runs on " + rig.devices()[1] + ":\n" + out);
            } finally {
                if (peer != null) {
                    peer.destroyForcibly();
                }
            }
        }
    }
}
