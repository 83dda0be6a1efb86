package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.probe.SysfsRoot;
import dev.verbs4j.loop.CompletionLoop;
import java.net.InetAddress;
import java.util.HexFormat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Situation (2) of the issue: the conformance suite across the rig's two-hosts topology, the server
 * end on rxe1 (10.78.0.1) and the client end on rxe2 (10.78.0.2), so RoCE v2 frames cross the veth
 * pair between two devices with distinct GIDs. RDMA is forced, in each completion mode. Runs only
 * with {@code ci/rig run --topology two-hosts ... -Dtest.groups=rdma-two-hosts}; in any other
 * topology every test fails.
 */
@Tag("rdma-two-hosts")
@ParameterizedClass
@EnumSource(CompletionMode.class)
class RdmaChannelConformanceTwoHostsRigTest extends ChannelConformanceSuite {
    @Parameter
    CompletionMode mode;

    // read when the test instance is made, so a wrong topology fails before anything is set up
    private final RigPairTopology rig = RigPairTopology.fromEnvironment();

    @Override
    ChannelConfig config(CompletionLoop loop) {
        return end(loop, rig.serverDevice());
    }

    @Override
    ChannelConfig clientConfig(CompletionLoop loop) {
        return end(loop, rig.clientDevice());
    }

    private ChannelConfig end(CompletionLoop loop, String device) {
        return ChannelConfig.defaults().transport(TransportPreference.RDMA).loop(loop).maxMessageSize(maxMessage())
                .device(device).gidIndex(rig.gidIndex()).receiveDepth(16).sendQueueDepth(16);
    }

    @Override
    String address() {
        return rig.serverAddress();
    }

    @Override
    CompletionMode mode() {
        return mode;
    }

    @Override
    TransportKind expectedTransport() {
        return TransportKind.RDMA;
    }

    @Override
    int messageCount() {
        return 40;
    }

    @Override
    public int maxMessage() {
        return 16 * 1024;
    }

    @Test
    void theEndsRunOnTwoDevicesWhoseGidsCarryTheirOwnAddresses() throws Exception {
        TransportChoice server = pair.server().transport();
        TransportChoice client = pair.client().transport();
        assertEquals(rig.serverDevice(), server.device(), server.describe());
        assertEquals(rig.clientDevice(), client.device(), client.describe());
        assertNotEquals(server.device(), client.device());
        assertNotEquals(System.getenv().getOrDefault("RIG_DEVICE", "rxe0"), server.device(), "not the single device");
        String serverGid = gid(server);
        String clientGid = gid(client);
        assertNotEquals(serverGid, clientGid, "the two ends must have distinct GIDs");
        assertTrue(serverGid.endsWith(ipv4Tail(rig.serverAddress())), serverGid + " is not " + rig.serverAddress());
        assertTrue(clientGid.endsWith(ipv4Tail(rig.clientAddress())), clientGid + " is not " + rig.clientAddress());
    }

    /** The GID an end uses, as sysfs shows it (rxe devices have one port). */
    private static String gid(TransportChoice end) {
        String path = "class/infiniband/" + end.device() + "/ports/1/gids/" + end.gidIndex();
        return SysfsRoot.system().read(path).orElseThrow(() -> new AssertionError("cannot read /sys/" + path));
    }

    /** The last 32 bits of an IPv4-mapped GID in sysfs's notation: 10.78.0.1 -> "0a4e:0001". */
    private static String ipv4Tail(String address) throws Exception {
        String hex = HexFormat.of().formatHex(InetAddress.getByName(address).getAddress());
        return hex.substring(0, 4) + ":" + hex.substring(4);
    }
}
