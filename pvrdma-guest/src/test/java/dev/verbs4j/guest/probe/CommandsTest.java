package dev.verbs4j.guest.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The doctor's tool runner: a tool that hangs must not hang the doctor. */
class CommandsTest {
    /** Far below the children's 30 s, far above the 1 s deadline: only a runner that waits out the child exceeds it. */
    private static final Duration GUARD = Duration.ofSeconds(20);

    @Test
    void returnsWhatAToolPrints() {
        assertEquals(Optional.of("hello"), Commands.output(List.of("sh", "-c", "echo hello")));
    }

    @Test
    void aFailingOrMissingToolIsNoAnswer() {
        assertEquals(Optional.empty(), Commands.output(List.of("sh", "-c", "echo partial; exit 3")));
        assertEquals(Optional.empty(), Commands.output(List.of("/nonexistent/tool")));
    }

    @Test
    void aToolThatPrintsAndNeverExitsIsKilledAtTheDeadline(@TempDir Path dir) throws Exception {
        Path pidFile = dir.resolve("pid");
        // prints, then keeps its stdout open for 30 s: the old runner blocked in the read before any timeout began
        List<String> hanging = List.of("sh", "-c", "echo $$ > " + pidFile + "; echo started; exec sleep 30");
        Optional<String> out = assertTimeoutPreemptively(GUARD,
                () -> Commands.output(hanging, Duration.ofSeconds(1)));
        assertEquals(Optional.empty(), out);
        long pid = Long.parseLong(Files.readString(pidFile).trim());
        Optional<ProcessHandle> child = ProcessHandle.of(pid);
        if (child.isPresent()) {
            child.get().onExit().get(GUARD.toSeconds(), TimeUnit.SECONDS);
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the hanging tool was not killed");
    }

    @Test
    void aSilentToolIsKilledAtTheDeadline() {
        Optional<String> out = assertTimeoutPreemptively(GUARD,
                () -> Commands.output(List.of("sleep", "30"), Duration.ofSeconds(1)));
        assertTrue(out.isEmpty());
    }
}
