package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.PeerResult;
import dev.verbs4j.rig.Ports;
import dev.verbs4j.rig.RigEnvironment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * rc-pingpong against rdma-core's ibv_rc_pingpong on the rig's rxe0, both directions, and Java
 * against Java. Sizes include 4000 with -m 1024 (four packets, the last one short) and sizes
 * that fit inline; iteration counts stay small because the rig is emulated.
 * Against rdma-core, ours runs on a thread of the test JVM (the wire is the same, without a JVM
 * start per side); Java against Java runs both through bin/verbs4j, as users do.
 */
@Tag("rdma")
class RcPingpongInteropRigTest {
    private static List<String> options(int port, int size, int iters, String extra) {
        RigEnvironment rig = RigEnvironment.current();
        List<String> o = new ArrayList<>(List.of("-d", rig.device(), "-g", String.valueOf(rig.gidIndex()),
                "-p", Integer.toString(port), "-s", Integer.toString(size), "-n", Integer.toString(iters)));
        if (!extra.isBlank()) {
            o.addAll(List.of(extra.trim().split("\\s+")));
        }
        return o;
    }

    /** server program, client program ("java" or "c"), then the common options. */
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
        assertTrue(c.lines("invalid data").isEmpty() && s.lines("invalid data").isEmpty(), c.describe());
        assertTrue(s.stdout().contains("remote address: LID 0x0000"), s.describe());
        InteropRig.report("rc-pingpong " + String.join(" ", serverArgs), s, sLines, c, cLines);
    }

    /** kind: "c", "java" or "jvm", as {@link InteropRig#start(String, String, String, String, List)} takes it. */
    static Peer start(String kind, String role, List<String> args) throws Exception {
        return InteropRig.start(kind, role, "ibv_rc_pingpong", "rc-pingpong", args);
    }

    @ParameterizedTest(name = "java server, C client: -s {0} -n {1} {2}")
    @CsvSource({"4000, 20, -m 1024 -c", "64, 50, ''", "8, 30, -e", "4096, 10, -e -m 2048 -c"})
    void javaServerCClient(int size, int iters, String extra) throws Exception {
        pair("jvm", "c", size, iters, extra);
    }

    @ParameterizedTest(name = "C server, java client: -s {0} -n {1} {2}")
    @CsvSource({"4000, 20, -m 1024 -c", "64, 50, ''", "8, 30, -e", "4096, 10, -e -m 2048 -c"})
    void cServerJavaClient(int size, int iters, String extra) throws Exception {
        pair("c", "jvm", size, iters, extra);
    }

    @ParameterizedTest(name = "java server, java client: -s {0} -n {1} {2}")
    @CsvSource({"4000, 20, -m 1024 -e -c", "100, 40, ''"})
    void javaJava(int size, int iters, String extra) throws Exception {
        pair("java", "java", size, iters, extra);
    }
}
