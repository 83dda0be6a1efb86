package dev.verbs4j.examples;

import static dev.verbs4j.rig.Peer.PROCESS_SECONDS;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.PeerResult;
import dev.verbs4j.rig.Ports;
import dev.verbs4j.rig.RigEnvironment;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs every quick-start of {@code dev.verbs4j.examples.quickstart} in the rig the way its javadoc
 * says, server and client, the client started once the server has printed its listener line, and
 * checks what each side prints. The first one runs as two processes with the javadoc's command
 * line; the others run their {@code main} on two threads of the test JVM, which saves two JVM
 * starts (seconds each under emulation) and changes nothing on the wire.
 */
@Tag("rdma")
class QuickStartRigTest {
    private static final String PACKAGE = "dev.verbs4j.examples.quickstart.";

    /** java -cp target/classes:target/lib/* (surefire runs in examples/). */
    private static List<String> java(String program, String... args) {
        if (!Files.isDirectory(Path.of("target", "lib"))) {
            fail("examples/target/lib missing: build with mvn -B -o -pl examples -am -DskipTests install");
        }
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(javaBin, "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-cp", "target" + File.separator + "classes" + File.pathSeparator
                        + "target" + File.separator + "lib" + File.separator + "*", PACKAGE + program));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** The quick-start's {@code main} on a thread of this JVM: status 0 when it returns, 1 when it throws. */
    private static Peer startInJvm(String program, String role, List<String> args) throws Exception {
        Method main = Class.forName(PACKAGE + program).getMethod("main", String[].class);
        return InJvmRun.start("jvm-" + program + "-" + role, a -> {
            try {
                main.invoke(null, (Object) a);
                return 0;
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }, args.toArray(String[]::new));
    }

    private static Peer start(boolean inJvm, String program, String role, List<String> args) throws Exception {
        return inJvm ? startInJvm(program, role, args)
                : InteropRig.start("java-" + program + "-" + role, java(program, args.toArray(String[]::new)));
    }

    /** Starts the server, waits for its "listening on" line, runs the client; both must succeed. */
    private static PeerResult[] pair(String program, List<String> serverArgs, List<String> clientArgs) throws Exception {
        return pair(true, program, serverArgs, clientArgs);
    }

    private static PeerResult[] pair(boolean inJvm, String program, List<String> serverArgs, List<String> clientArgs)
            throws Exception {
        Peer server = start(inJvm, program, "server", serverArgs);
        server.awaitOutput("listening on");
        Peer client = start(inJvm, program, "client", clientArgs);
        PeerResult c = client.await(PROCESS_SECONDS);
        PeerResult s = server.await(PROCESS_SECONDS);
        PeerResult.assertBothSucceeded(s, c);
        return new PeerResult[] {s, c};
    }

    private static PeerResult[] tcpPair(String program) throws Exception {
        return tcpPair(true, program);
    }

    private static PeerResult[] tcpPair(boolean inJvm, String program) throws Exception {
        String port = Integer.toString(Ports.next());
        return pair(inJvm, program, List.of("server", port), List.of("client", "127.0.0.1", port));
    }

    private static void assertPrints(PeerResult r, String line) {
        assertTrue(r.stdout().lines().anyMatch(line::equals), "expected the line '" + line + "': " + r.describe());
    }

    @Test
    void rcSendReceive() throws Exception {
        PeerResult[] r = tcpPair(false, "RcSendReceive"); // as two processes, the javadoc's command line
        assertPrints(r[0], "received 16 bytes: hello over RDMA");
        assertPrints(r[1], "sent");
    }

    @Test
    void rdmaWriteRead() throws Exception {
        PeerResult[] r = tcpPair("RdmaWriteRead");
        assertPrints(r[0], "server memory now holds: written by RDMA");
        assertPrints(r[1], "read back: written by RDMA");
    }

    @Test
    void atomics() throws Exception {
        PeerResult[] r = tcpPair("Atomics");
        assertPrints(r[1], "fetch-and-add saw 100");
        assertPrints(r[1], "compare-and-swap saw 105");
        assertPrints(r[0], "server counter: 7");
    }

    @Test
    void udDatagram() throws Exception {
        PeerResult[] r = tcpPair("UdDatagram");
        assertPrints(r[0], "received datagram: one datagram");
        assertPrints(r[1], "sent datagram");
    }

    @Test
    void rdmaCmClientServer() throws Exception {
        String port = Integer.toString(Ports.next());
        PeerResult[] r = pair("CmClientServer", List.of("server", RigEnvironment.current().address(), port),
                List.of("client", RigEnvironment.current().address(), port));
        assertPrints(r[0], "received: hello through rdma_cm");
        assertPrints(r[1], "sent");
    }

    @Test
    void channelOverRdmaOverTcpAndByItselfOverSharedMemory() throws Exception {
        for (String transport : List.of("rdma", "tcp", "auto")) {
            String port = Integer.toString(Ports.next());
            PeerResult[] r = pair("ChannelTransport", List.of("server", port, transport),
                    List.of("client", RigEnvironment.current().address(), port, transport));
            String expected = transport.equals("auto") ? "shm" : transport; // two processes of one guest
            for (PeerResult side : r) {
                assertTrue(side.stdout().lines().anyMatch(l -> l.startsWith("transport: " + expected + " (")),
                        "expected transport " + expected + ": " + side.describe());
            }
            assertPrints(r[0], "received: ping");
            assertPrints(r[1], "received: pong");
        }
    }

    /**
     * NettyEcho leaves the transport to AUTO, as a Netty program that changed nothing but its group
     * and channel classes does: its two processes in one guest share memory (Netty over RDMA is
     * RdmaStreamWindowRigTest's, RdmaGrpcRigTest's and the Netty testsuite's, each with RDMA forced).
     */
    @Test
    void nettyEchoRunsOverSharedMemoryBetweenTwoProcessesOfOneGuest() throws Exception {
        String port = Integer.toString(Ports.next());
        PeerResult[] r = pair("NettyEcho", List.of("server", port), List.of("client", RigEnvironment.current().address(), port));
        assertTrue(r[1].stdout().lines().anyMatch(l -> l.startsWith("transport: shm (")), r[1].describe());
        assertPrints(r[1], "received: ping");
    }
}
