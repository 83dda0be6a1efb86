package dev.verbs4j.examples;

import static dev.verbs4j.examples.InteropRig.PROCESS_SECONDS;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.examples.InteropRig.Result;
import dev.verbs4j.examples.InteropRig.Run;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The launcher's pingpongs against rdma-core's across the rig's two network namespaces: each
 * program runs under {@code ip netns exec} with its namespace's rxe (rxea in nsa, rxeb in nsb), so
 * the two ends share nothing but the veth pair. Needs a two-netns topology (7.x kernel):
 * <pre>ci/rig run --topology two-netns mvn -B -o -ntp -P rig -pl examples surefire:test -Dtest.groups=rdma-two-netns -Dtest.excludedGroups=none</pre>
 */
@Tag("rdma-two-netns")
class InteropTwoNetnsRigTest {
    private static String[] words(String name) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            fail(name + " is not set: needs ci/rig run --topology two-netns (RIG_TOPOLOGY=" + System.getenv("RIG_TOPOLOGY") + ")");
        }
        return v.trim().split("\\s+");
    }

    private static List<String> in(String netns, List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", netns));
        all.addAll(command);
        return all;
    }

    /** Server in nsa on rxea, client in nsb on rxeb; {@code java} says which side is verbs4j's. */
    private static void pair(String what, String cProgram, String javaSide, List<String> options) throws Exception {
        String[] ns = words("RIG_NETNS_PAIR");
        String[] devices = words("RIG_NETNS_PAIR_DEVICES");
        String[] addrs = words("RIG_NETNS_PAIR_ADDRS");
        String gid = words("RIG_NETNS_PAIR_GID_INDEX")[0];
        int port = InteropRig.nextPort();
        List<String> common = new ArrayList<>(List.of("-g", gid, "-p", Integer.toString(port)));
        common.addAll(options);
        List<String> serverArgs = new ArrayList<>(List.of("-d", devices[0]));
        serverArgs.addAll(common);
        List<String> clientArgs = new ArrayList<>(List.of("-d", devices[1]));
        clientArgs.addAll(common);
        clientArgs.add(addrs[0]);
        boolean javaServer = javaSide.equals("server");
        Run server = InteropRig.start(javaServer ? "java-server" : "c-server", in(ns[0], javaServer
                ? InteropRig.java(what, serverArgs.toArray(String[]::new)) : InteropRig.c(cProgram, serverArgs.toArray(String[]::new))));
        InteropRig.awaitTcpListen(port, server);
        Run client = InteropRig.start(javaServer ? "c-client" : "java-client", in(ns[1], javaServer
                ? InteropRig.c(cProgram, clientArgs.toArray(String[]::new)) : InteropRig.java(what, clientArgs.toArray(String[]::new))));
        Result c = client.await(PROCESS_SECONDS);
        Result s = server.await(PROCESS_SECONDS);
        InteropRig.assertBothSucceeded(s, c);
        int size = Integer.parseInt(options.get(options.indexOf("-s") + 1));
        int iters = Integer.parseInt(options.get(options.indexOf("-n") + 1));
        InteropRig.report(what + " " + ns[0] + "/" + devices[0] + " <-> " + ns[1] + "/" + devices[1], s,
                InteropRig.assertSummary(s, size, iters), c, InteropRig.assertSummary(c, size, iters));
    }

    @Test
    void javaRcServerInNsaWithCClientInNsb() throws Exception {
        pair("rc-pingpong", "ibv_rc_pingpong", "server", List.of("-s", "4000", "-n", "20", "-m", "1024", "-c"));
    }

    @Test
    void cUdServerInNsaWithJavaClientInNsb() throws Exception {
        pair("ud-pingpong", "ibv_ud_pingpong", "client", List.of("-s", "1000", "-n", "20", "-c"));
    }
}
