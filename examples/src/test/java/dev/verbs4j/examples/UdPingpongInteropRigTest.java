package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.PeerResult;
import dev.verbs4j.rig.Ports;
import dev.verbs4j.rig.RigEnvironment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ud-pingpong against rdma-core's ibv_ud_pingpong on rxe0, both directions and Java against Java.
 * A UD message must fit the port's active MTU (1024 on the rig's rxe0 over a 1500-byte netdev).
 * Against rdma-core, ours runs on a thread of the test JVM (the wire is the same, without a JVM
 * start per side); Java against Java runs both through bin/verbs4j, as users do.
 */
@Tag("rdma")
class UdPingpongInteropRigTest {
    private static List<String> options(int port, int size, int iters, String extra) {
        RigEnvironment rig = RigEnvironment.current();
        List<String> o = new ArrayList<>(List.of("-d", rig.device(), "-g", String.valueOf(rig.gidIndex()),
                "-p", Integer.toString(port), "-s", Integer.toString(size), "-n", Integer.toString(iters)));
        if (!extra.isBlank()) {
            o.addAll(List.of(extra.trim().split("\\s+")));
        }
        return o;
    }

    /** kind: "c", "java" or "jvm", as {@link InteropRig#start(String, String, String, String, List)} takes it. */
    static Peer start(String kind, String role, List<String> args) throws Exception {
        return InteropRig.start(kind, role, "ibv_ud_pingpong", "ud-pingpong", args);
    }

    private static void pair(String serverKind, String clientKind, int size, int iters, String extra) throws Exception {
        int port = Ports.next();
        List<String> serverArgs = options(port, size, iters, extra);
        List<String> clientArgs = new ArrayList<>(options(port, size, iters, extra));
        clientArgs.add(RigEnvironment.current().address());
        List<PeerResult> sides = InteropRig.tcpPair(port, () -> start(serverKind, "server", serverArgs),
                () -> start(clientKind, "client", clientArgs));
        PeerResult s = sides.get(0);
        PeerResult c = sides.get(1);
        List<String> sLines = InteropRig.assertSummary(s, size, iters);
        List<String> cLines = InteropRig.assertSummary(c, size, iters);
        assertTrue(c.lines("invalid data").isEmpty(), c.describe());
        InteropRig.report("ud-pingpong " + String.join(" ", serverArgs), s, sLines, c, cLines);
    }

    @ParameterizedTest(name = "java server, C client: -s {0} -n {1} {2}")
    @CsvSource({"1000, 20, -c", "8, 40, -e", "1024, 10, -e -c"})
    void javaServerCClient(int size, int iters, String extra) throws Exception {
        pair("jvm", "c", size, iters, extra);
    }

    @ParameterizedTest(name = "C server, java client: -s {0} -n {1} {2}")
    @CsvSource({"1000, 20, -c", "8, 40, -e", "1024, 10, -e -c"})
    void cServerJavaClient(int size, int iters, String extra) throws Exception {
        pair("c", "jvm", size, iters, extra);
    }

    @ParameterizedTest(name = "java server, java client: -s {0} -n {1} {2}")
    @CsvSource({"500, 20, -e -c"})
    void javaJava(int size, int iters, String extra) throws Exception {
        pair("java", "java", size, iters, extra);
    }
}
