package dev.verbs4j.examples;

import static dev.verbs4j.rig.Peer.PROCESS_SECONDS;

import dev.verbs4j.rig.Listeners;
import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.PeerResult;
import dev.verbs4j.rig.Ports;
import dev.verbs4j.rig.RigEnvironment;
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
    private static List<String> in(String netns, List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", netns));
        all.addAll(command);
        return all;
    }

    /** Server in nsa on rxea, client in nsb on rxeb; {@code java} says which side is verbs4j's. */
    private static void pair(String what, String cProgram, String javaSide, List<String> options) throws Exception {
        RigEnvironment rig = RigEnvironment.current();
        String[] ns = rig.netnsPair().toArray(String[]::new);
        String[] devices = rig.netnsPairDevices().toArray(String[]::new);
        String[] addrs = rig.netnsPairAddresses().toArray(String[]::new);
        String gid = String.valueOf(rig.netnsPairGidIndex());
        int port = Ports.next();
        List<String> common = new ArrayList<>(List.of("-g", gid, "-p", Integer.toString(port)));
        common.addAll(options);
        List<String> serverArgs = new ArrayList<>(List.of("-d", devices[0]));
        serverArgs.addAll(common);
        List<String> clientArgs = new ArrayList<>(List.of("-d", devices[1]));
        clientArgs.addAll(common);
        clientArgs.add(addrs[0]);
        boolean javaServer = javaSide.equals("server");
        Peer server = InteropRig.start(javaServer ? "java-server" : "c-server", in(ns[0], javaServer
                ? InteropRig.java(what, serverArgs.toArray(String[]::new)) : InteropRig.c(cProgram, serverArgs.toArray(String[]::new))));
        Listeners.awaitTcpListen(port, server);
        Peer client = InteropRig.start(javaServer ? "c-client" : "java-client", in(ns[1], javaServer
                ? InteropRig.c(cProgram, clientArgs.toArray(String[]::new)) : InteropRig.java(what, clientArgs.toArray(String[]::new))));
        PeerResult c = client.await(PROCESS_SECONDS);
        PeerResult s = server.await(PROCESS_SECONDS);
        PeerResult.assertBothSucceeded(s, c);
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
