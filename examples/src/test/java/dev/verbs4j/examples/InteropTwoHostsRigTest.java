package dev.verbs4j.examples;

import static dev.verbs4j.examples.InteropRig.PROCESS_SECONDS;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.verbs4j.examples.InteropRig.Result;
import dev.verbs4j.examples.InteropRig.Run;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Across the rig's two-hosts topology: rxe1 (10.78.0.1) and rxe2 (10.78.0.2) on the two ends of a
 * veth pair, so RoCE v2 frames really travel between two devices with distinct GIDs. Runs only
 * with {@code ci/rig run --topology two-hosts ... -Dtest.groups=rdma-two-hosts}; elsewhere it is
 * skipped (an assumption), never counted as passed.
 */
@Tag("rdma-two-hosts")
class InteropTwoHostsRigTest {
    @Test
    void javaRcServerOnRxe1WithCClientOnRxe2() throws Exception {
        assumeTrue("two-hosts".equals(System.getenv("RIG_TOPOLOGY")), "needs ci/rig run --topology two-hosts");
        String[] devices = InteropRig.env("RIG_PAIR_DEVICES", null).split("\\s+");
        String[] addrs = InteropRig.env("RIG_PAIR_ADDRS", null).split("\\s+");
        String gid = InteropRig.env("RIG_PAIR_GID_INDEX", null);
        int port = InteropRig.nextPort();
        int size = 4000;
        int iters = 20;
        List<String> common = List.of("-g", gid, "-p", Integer.toString(port), "-s", Integer.toString(size), "-n",
                Integer.toString(iters), "-m", "1024", "-c");
        Run server = InteropRig.start("java-server", InteropRig.java("rc-pingpong",
                concat(List.of("-d", devices[0]), common).toArray(String[]::new)));
        InteropRig.awaitTcpListen(port, server);
        Run client = InteropRig.start("c-client", InteropRig.c("ibv_rc_pingpong",
                concat(concat(List.of("-d", devices[1]), common), List.of(addrs[0])).toArray(String[]::new)));
        Result c = client.await(PROCESS_SECONDS);
        Result s = server.await(PROCESS_SECONDS);
        InteropRig.assertBothSucceeded(s, c);
        InteropRig.report("two-hosts rc-pingpong " + devices[0] + " <-> " + devices[1], s,
                InteropRig.assertSummary(s, size, iters), c, InteropRig.assertSummary(c, size, iters));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
