package dev.verbs4j.rig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommandsTest {
    @Test
    void returnsStdoutAndFailsWithBothOutputsOnANonZeroExit() {
        assertEquals("out\n", Commands.sh("echo out; echo note >&2"));
        AssertionError e = assertThrows(AssertionError.class, () -> Commands.sh("echo out; echo why >&2; exit 4"));
        assertTrue(e.getMessage().contains("exit 4") && e.getMessage().contains("why"), e.getMessage());
    }

    @Test
    void aHangIsEndedAtItsBound() {
        PeerResult r = Commands.exec(Duration.ofSeconds(1), List.of("sleep", "600"));
        assertTrue(r.timedOut(), r.describe());
    }

    @Test
    void aMissingProgramIsOneClearFailure() {
        AssertionError e = assertThrows(AssertionError.class, () -> Commands.run("no-such-program-here"));
        assertTrue(e.getMessage().startsWith("cannot run no-such-program-here"), e.getMessage());
    }

    @Test
    void resourceCountsOfOneDevice() {
        String summary = "0: rxe0: pd 1 cq 2 qp 1 cm_id 0 mr 0 ctx 0 srq 0\n1: rxe1: pd 0 cq 0 qp 0 cm_id 0 mr 3 ctx 0 srq 0";
        assertEquals(Map.of("pd", 0, "cq", 0, "qp", 0, "cm_id", 0, "mr", 3, "ctx", 0, "srq", 0),
                ResourceShow.counts(summary, "rxe1"));
        assertThrows(AssertionError.class, () -> ResourceShow.counts(summary, "rxe9"));
    }
}
