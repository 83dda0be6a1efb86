package dev.verbs4j.rig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PeerProcessTest {
    @Test
    void waitsForALineAndEndsTheWholeTreeWhenClosed() throws Exception {
        List<ProcessHandle> tree;
        try (PeerProcess peer = PeerProcess.start("server", List.of("bash", "-c", "sleep 600 & echo ready; wait"))) {
            peer.awaitOutput("ready");
            tree = ProcessHandle.of(peer.pid()).orElseThrow().descendants().toList();
            assertFalse(tree.isEmpty(), "the sleep runs as bash's child");
        }
        for (ProcessHandle p : tree) {
            p.onExit().join();
            assertFalse(p.isAlive());
        }
    }

    @Test
    void aNameAsLongAsAWholeCommandLineStillNamesItsOutputFiles() throws Exception {
        String name = "java " + "-cp target/classes:target/lib/* ".repeat(20) + "Main client 127.0.0.1";
        try (PeerProcess peer = PeerProcess.start(name, List.of("bash", "-c", "echo said"))) {
            assertEquals("said\n", peer.await(30).stdout());
        }
    }

    @Test
    void aProgramThatTakesTooLongIsEndedAndSaysSo() throws Exception {
        PeerProcess peer = PeerProcess.start("hang", List.of("bash", "-c", "echo started; exec sleep 600"));
        PeerResult r = peer.await(1);
        assertTrue(r.timedOut(), r.describe());
        assertEquals(-1, r.exit());
        assertEquals("started\n", r.stdout());
        assertFalse(peer.isAlive());
        assertThrows(AssertionError.class, r::assertFailure);
    }

    @Test
    void aWaitFailsWhenTheProgramEndsFirst() throws Exception {
        try (PeerProcess peer = PeerProcess.start("short", List.of("bash", "-c", "echo bye; echo oops >&2; exit 3"))) {
            AssertionError e = assertThrows(AssertionError.class, () -> peer.awaitOutput("listening"));
            assertTrue(e.getMessage().startsWith("short ended before printing 'listening': short exit 3"), e.getMessage());
            assertTrue(e.getMessage().contains("bye") && e.getMessage().contains("oops"), e.getMessage());
            assertEquals(3, peer.await(1).exit());
            peer.await(1).assertFailure();
        }
    }
}
