package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.rig.Listeners;
import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.PeerResult;
import dev.verbs4j.rig.Ports;
import dev.verbs4j.rig.RigEnvironment;
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
        int port = Ports.next();
        PeerResult r = InteropRig.startInJvm("rc-pingpong", "client", "-d", RigEnvironment.current().device(), "-g",
                String.valueOf(RigEnvironment.current().gidIndex()), "-p", Integer.toString(port), "--timeout", "5", RigEnvironment.current().address())
                .await(BOUND_SECONDS);
        r.assertFailure();
        assertTrue(r.stderr().contains("Couldn't connect to " + RigEnvironment.current().address() + ":" + port), r.describe());
    }

    @Test
    void wrongGidIndexIsAClearError() throws Exception {
        PeerResult r = InteropRig.start("java-server", InteropRig.java("rc-pingpong", "-d", RigEnvironment.current().device(), "-g", "99",
                "-p", Integer.toString(Ports.next()))).await(BOUND_SECONDS);
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
        int port = Ports.next();
        List<String> common = List.of("-d", RigEnvironment.current().device(), "-g", String.valueOf(RigEnvironment.current().gidIndex()), "-p",
                Integer.toString(port), "-s", "64", "-n", "100000000");
        Peer server;
        Peer client;
        if (javaIsServer) {
            server = InteropRig.startInJvm(javaCommand, "server", javaArgs(common, null));
            Listeners.awaitTcpListen(port, server);
            client = InteropRig.start("c-client", cArgs(cProgram, common, RigEnvironment.current().address()));
        } else {
            server = InteropRig.start("c-server", cArgs(cProgram, common, null));
            Listeners.awaitTcpListen(port, server);
            client = InteropRig.startInJvm(javaCommand, "client", javaArgs(common, RigEnvironment.current().address()));
        }
        Peer java = javaIsServer ? server : client;
        Peer c = javaIsServer ? client : server;
        java.awaitOutput("remote address:", BOUND_SECONDS);
        Thread.sleep(1000); // let traffic flow: the kill must land mid-run, not before the first exchange
        c.kill();
        PeerResult r = java.await(BOUND_SECONDS);
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

    @Test
    void rpingClientWithNothingListening() throws Exception {
        PeerResult r = InteropRig.start("java-client", InteropRig.java("rping", "-c", "-a", RigEnvironment.current().address(), "-p",
                Integer.toString(Ports.next()), "-C", "1", "--timeout", "10")).await(BOUND_SECONDS);
        r.assertFailure();
        assertTrue(r.stderr().contains("verbs4j rping client:"), r.describe());
    }

    @Test
    void rpingClientWhoseServerIsKilledMidRun() throws Exception {
        int port = Ports.next();
        Peer server = InteropRig.start("c-server", InteropRig.c("rping", "-s", "-a", RigEnvironment.current().address(), "-p",
                Integer.toString(port)));
        Listeners.awaitCmListen(port, server);
        Peer client = InteropRig.startInJvm("rping", "client", "-c", "-v", "-a", RigEnvironment.current().address(),
                "-p", Integer.toString(port), "--timeout", "10");
        client.awaitOutput("ping data:", BOUND_SECONDS);
        server.kill();
        PeerResult r = client.await(BOUND_SECONDS);
        // the C client ends with status 0 when the server disconnects; a killed server may also show
        // as a transport error: either way the run must end, with a message, within the bound
        assertTrue(!r.timedOut(), r.describe());
        assertTrue(r.stderr().contains("DISCONNECT") || r.exit() != 0, r.describe());
    }
}
