package dev.verbs4j.examples;

import static dev.verbs4j.rig.Peer.PROCESS_SECONDS;

import dev.verbs4j.rig.Listeners;
import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.PeerResult;
import dev.verbs4j.rig.Ports;
import dev.verbs4j.rig.RigEnvironment;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Across the rig's two-hosts topology: rxe1 (10.78.0.1) and rxe2 (10.78.0.2) on the two ends of a
 * veth pair, so RoCE v2 frames really travel between two devices with distinct GIDs. Runs only
 * with {@code ci/rig run --topology two-hosts ... -Dtest.groups=rdma-two-hosts}; elsewhere it fails,
 * saying so, and is never counted as passed.
 */
@Tag("rdma-two-hosts")
class InteropTwoHostsRigTest {
    @Test
    void javaRcServerOnRxe1WithCClientOnRxe2() throws Exception {
        RigEnvironment rig = RigEnvironment.current();
        List<String> devices = rig.pairDevices();
        List<String> addrs = rig.pairAddresses();
        String gid = String.valueOf(rig.pairGidIndex());
        int port = Ports.next();
        int size = 4000;
        int iters = 20;
        List<String> common = List.of("-g", gid, "-p", Integer.toString(port), "-s", Integer.toString(size), "-n",
                Integer.toString(iters), "-m", "1024", "-c");
        Peer server = InteropRig.start("java-server", InteropRig.java("rc-pingpong",
                concat(List.of("-d", devices.get(0)), common).toArray(String[]::new)));
        Listeners.awaitTcpListen(port, server);
        Peer client = InteropRig.start("c-client", InteropRig.c("ibv_rc_pingpong",
                concat(concat(List.of("-d", devices.get(1)), common), List.of(addrs.get(0))).toArray(String[]::new)));
        PeerResult c = client.await(PROCESS_SECONDS);
        PeerResult s = server.await(PROCESS_SECONDS);
        PeerResult.assertBothSucceeded(s, c);
        InteropRig.report("two-hosts rc-pingpong " + devices.get(0) + " <-> " + devices.get(1), s,
                InteropRig.assertSummary(s, size, iters), c, InteropRig.assertSummary(c, size, iters));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
