package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.examples.InteropRig.Result;
import dev.verbs4j.examples.InteropRig.Run;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Peers that are not there, not right, or die: each Java program must end with a clear message
 * and a non-zero exit within its timeout, never hang. The process-level bound here is generous
 * (JVM start-up under emulation); --timeout keeps the programs' own waits short. Two cases run
 * the programs through bin/verbs4j, as users do; the others on a thread of the test JVM, where a
 * program that leaves a non-daemon thread behind (its own JVM would never exit) fails too.
 */
@Tag("rdma")
class WrongPeerInteropRigTest {
    private static final long BOUND_SECONDS = 90;

    @Test
    void rcClientWithNothingListening() throws Exception {
        int port = InteropRig.nextPort();
        Result r = InteropRig.startInJvm("rc-pingpong", "client", "-d", InteropRig.device(), "-g",
                InteropRig.gidIndex(), "-p", Integer.toString(port), "--timeout", "5", InteropRig.address())
                .await(BOUND_SECONDS);
        r.assertFailure();
        assertTrue(r.stderr().contains("Couldn't connect to " + InteropRig.address() + ":" + port), r.describe());
    }

    @Test
    void wrongGidIndexIsAClearError() throws Exception {
        Result r = InteropRig.start("java-server", InteropRig.java("rc-pingpong", "-d", InteropRig.device(), "-g", "99",
                "-p", Integer.toString(InteropRig.nextPort()))).await(BOUND_SECONDS);
        r.assertFailure();
        assertTrue(r.stderr().contains("GID index 99"), r.describe());
    }

    @Test
    void rcServerWhoseClientIsKilledMidRun() throws Exception {
        peerKilledMidRun("rc-pingpong", "ibv_rc_pingpong", true);
    }

    @Test
    void rcClientWhoseServerIsKilledMidRun() throws Exception {
        peerKilledMidRun("rc-pingpong", "ibv_rc_pingpong", false);
    }

    @Test
    void udClientWhoseServerIsKilledMidRun() throws Exception {
        peerKilledMidRun("ud-pingpong", "ibv_ud_pingpong", false);
    }

    /** A long C run on the other side is killed once traffic flows; the Java side must fail, not hang. */
    private static void peerKilledMidRun(String javaCommand, String cProgram, boolean javaIsServer) throws Exception {
        int port = InteropRig.nextPort();
        List<String> common = List.of("-d", InteropRig.device(), "-g", InteropRig.gidIndex(), "-p",
                Integer.toString(port), "-s", "64", "-n", "100000000");
        Run server;
        Run client;
        if (javaIsServer) {
            server = InteropRig.startInJvm(javaCommand, "server", javaArgs(common, null));
            InteropRig.awaitTcpListen(port, server);
            client = InteropRig.start("c-client", cArgs(cProgram, common, InteropRig.address()));
        } else {
            server = InteropRig.start("c-server", cArgs(cProgram, common, null));
            InteropRig.awaitTcpListen(port, server);
            client = InteropRig.startInJvm(javaCommand, "client", javaArgs(common, InteropRig.address()));
        }
        Run java = javaIsServer ? server : client;
        Run c = javaIsServer ? client : server;
        awaitOutput(java, "remote address:");
        Thread.sleep(1000); // let traffic flow: the kill must land mid-run, not before the first exchange
        c.kill();
        Result r = java.await(BOUND_SECONDS);
        r.assertFailure();
        assertTrue(r.stderr().contains("Failed status") || r.stderr().contains("no completion"), r.describe());
    }

    private static String[] javaArgs(List<String> common, String host) {
        List<String> args = new java.util.ArrayList<>(common);
        args.addAll(List.of("--timeout", "5"));
        if (host != null) {
            args.add(host);
        }
        return args.toArray(String[]::new);
    }

    private static List<String> cArgs(String program, List<String> common, String host) {
        List<String> args = new java.util.ArrayList<>(common);
        if (host != null) {
            args.add(host);
        }
        return InteropRig.c(program, args.toArray(String[]::new));
    }

    private static void awaitOutput(Run run, String text) throws Exception {
        long deadline = System.nanoTime() + BOUND_SECONDS * 1_000_000_000L;
        while (!run.stdoutSoFar().contains(text)) {
            if (System.nanoTime() > deadline || !run.isAlive()) {
                run.kill();
                throw new AssertionError("never printed '" + text + "': " + run.await(5).describe());
            }
            Thread.sleep(200);
        }
    }

    @Test
    void rpingClientWithNothingListening() throws Exception {
        Result r = InteropRig.start("java-client", InteropRig.java("rping", "-c", "-a", InteropRig.address(), "-p",
                Integer.toString(InteropRig.nextPort()), "-C", "1", "--timeout", "10")).await(BOUND_SECONDS);
        r.assertFailure();
        assertTrue(r.stderr().contains("verbs4j rping client:"), r.describe());
    }

    @Test
    void rpingClientWhoseServerIsKilledMidRun() throws Exception {
        int port = InteropRig.nextPort();
        Run server = InteropRig.start("c-server", InteropRig.c("rping", "-s", "-a", InteropRig.address(), "-p",
                Integer.toString(port)));
        InteropRig.awaitCmListen(port, server);
        Run client = InteropRig.startInJvm("rping", "client", "-c", "-v", "-a", InteropRig.address(),
                "-p", Integer.toString(port), "--timeout", "10");
        awaitOutput(client, "ping data:");
        server.kill();
        Result r = client.await(BOUND_SECONDS);
        // the C client ends with status 0 when the server disconnects; a killed server may also show
        // as a transport error: either way the run must end, with a message, within the bound
        assertTrue(!r.timedOut(), r.describe());
        assertTrue(r.stderr().contains("DISCONNECT") || r.exit() != 0, r.describe());
    }
}
