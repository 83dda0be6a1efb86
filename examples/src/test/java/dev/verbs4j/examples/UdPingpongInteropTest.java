package dev.verbs4j.examples;

import static dev.verbs4j.examples.InteropRig.PROCESS_SECONDS;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.examples.InteropRig.Result;
import dev.verbs4j.examples.InteropRig.Run;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ud-pingpong against rdma-core's ibv_ud_pingpong on rxe0, both directions and Java against Java.
 * A UD message must fit the port's active MTU (1024 on the rig's rxe0 over a 1500-byte netdev).
 */
@Tag("rdma")
class UdPingpongInteropTest {
    private static List<String> options(int port, int size, int iters, String extra) {
        List<String> o = new ArrayList<>(List.of("-d", InteropRig.device(), "-g", InteropRig.gidIndex(),
                "-p", Integer.toString(port), "-s", Integer.toString(size), "-n", Integer.toString(iters)));
        if (!extra.isBlank()) {
            o.addAll(List.of(extra.trim().split("\\s+")));
        }
        return o;
    }

    static List<String> command(String kind, List<String> args) {
        return kind.equals("java") ? InteropRig.java("ud-pingpong", args.toArray(String[]::new))
                : InteropRig.c("ibv_ud_pingpong", args.toArray(String[]::new));
    }

    private static void pair(String serverKind, String clientKind, int size, int iters, String extra) throws Exception {
        int port = InteropRig.nextPort();
        List<String> serverArgs = options(port, size, iters, extra);
        List<String> clientArgs = new ArrayList<>(options(port, size, iters, extra));
        clientArgs.add(InteropRig.address());
        Run server = InteropRig.start(serverKind + "-server", command(serverKind, serverArgs));
        InteropRig.awaitTcpListen(port, server);
        Run client = InteropRig.start(clientKind + "-client", command(clientKind, clientArgs));
        Result c = client.await(PROCESS_SECONDS);
        Result s = server.await(PROCESS_SECONDS);
        InteropRig.assertBothSucceeded(s, c);
        List<String> sLines = InteropRig.assertSummary(s, size, iters);
        List<String> cLines = InteropRig.assertSummary(c, size, iters);
        assertTrue(c.lines("invalid data").isEmpty(), c.describe());
        InteropRig.report("ud-pingpong " + String.join(" ", serverArgs), s, sLines, c, cLines);
    }

    @ParameterizedTest(name = "java server, C client: -s {0} -n {1} {2}")
    @CsvSource({"1000, 20, -c", "8, 40, -e", "1024, 10, -e -c"})
    void javaServerCClient(int size, int iters, String extra) throws Exception {
        pair("java", "c", size, iters, extra);
    }

    @ParameterizedTest(name = "C server, java client: -s {0} -n {1} {2}")
    @CsvSource({"1000, 20, -c", "8, 40, -e", "1024, 10, -e -c"})
    void cServerJavaClient(int size, int iters, String extra) throws Exception {
        pair("c", "java", size, iters, extra);
    }

    @ParameterizedTest(name = "java server, java client: -s {0} -n {1} {2}")
    @CsvSource({"500, 20, -e -c"})
    void javaJava(int size, int iters, String extra) throws Exception {
        pair("java", "java", size, iters, extra);
    }
}
