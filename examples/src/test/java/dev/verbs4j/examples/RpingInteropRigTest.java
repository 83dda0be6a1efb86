package dev.verbs4j.examples;

import static dev.verbs4j.rig.Peer.PROCESS_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.verbs4j.rig.Listeners;
import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.PeerResult;
import dev.verbs4j.rig.Ports;
import dev.verbs4j.rig.RigEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * rping against rdma-core's rping on rxe0: both directions and Java against Java. The client
 * validates every ping (-V) and prints it (-v); the test recomputes each line from the protocol's
 * fill pattern, so payload integrity is checked end to end on both sides.
 * Against rdma-core, ours runs on a thread of the test JVM (the wire is the same, without a JVM
 * start per side); Java against Java runs both through bin/verbs4j, as users do.
 */
@Tag("rdma")
class RpingInteropRigTest {
    /** kind: "c", "java" or "jvm", as {@link InteropRig#start(String, String, String, String, List)} takes it. */
    static Peer start(String kind, String role, List<String> args) throws Exception {
        return InteropRig.start(kind, role, "rping", "rping", args);
    }

    /** rdma_cm listens without a TCP socket: retry the client while the server is still starting. */
    static PeerResult clientWithRetry(String kind, List<String> args, Peer server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PROCESS_SECONDS);
        PeerResult last = null;
        while (System.nanoTime() < deadline && server.isAlive()) {
            last = start(kind, "client", args).await(PROCESS_SECONDS);
            boolean notListening = last.exit() != 0 && !last.stdout().contains("ping data")
                    && (last.stderr().contains("REJECTED") || last.stderr().contains("UNREACHABLE")
                        || last.stderr().contains("invalid service ID") || last.stderr().contains("ECONNREFUSED"));
            if (!notListening) {
                return last;
            }
            Thread.sleep(1000);
        }
        return last;
    }

    static List<String> expectedPings(int size, int count, String prefix) {
        List<String> lines = new ArrayList<>();
        for (int ping = 0; ping < count; ping++) {
            lines.add(prefix + RpingMessages.cString(RpingMessages.pingData(ping, size)));
        }
        return lines;
    }

    private static void pair(String serverKind, String clientKind, int size, int count) throws Exception {
        int port = Ports.next();
        String addr = RigEnvironment.current().address();
        List<String> serverArgs = List.of("-s", "-v", "-a", addr, "-p", Integer.toString(port), "-S",
                Integer.toString(size));
        List<String> clientArgs = List.of("-c", "-v", "-V", "-a", addr, "-p", Integer.toString(port), "-S",
                Integer.toString(size), "-C", Integer.toString(count));
        Peer server = start(serverKind, "server", serverArgs);
        Listeners.awaitCmListen(port, server);
        PeerResult c = clientWithRetry(clientKind, clientArgs, server);
        PeerResult s = server.await(PROCESS_SECONDS);
        PeerResult.assertBothSucceeded(s, c);
        assertEquals(expectedPings(size, count, "ping data: "), c.lines("ping data: "), c.describe());
        assertEquals(expectedPings(size, count, "server ping data: "), s.lines("server ping data: "), s.describe());
        System.out.println("[interop] rping -S " + size + " -C " + count + ": " + s.name() + " / " + c.name()
                + ": " + count + " pings verified both ways");
    }

    @ParameterizedTest(name = "java server, C client: -S {0} -C {1}")
    @CsvSource({"64, 10", "4000, 5", "26, 3", "65535, 2"})
    void javaServerCClient(int size, int count) throws Exception {
        pair("jvm", "c", size, count);
    }

    @ParameterizedTest(name = "C server, java client: -S {0} -C {1}")
    @CsvSource({"64, 10", "4000, 5", "26, 3", "65535, 2"})
    void cServerJavaClient(int size, int count) throws Exception {
        pair("c", "jvm", size, count);
    }

    @ParameterizedTest(name = "java server, java client: -S {0} -C {1}")
    @CsvSource({"1000, 5"})
    void javaJava(int size, int count) throws Exception {
        pair("java", "java", size, count);
    }
}
