package dev.verbs4j.guest;

import dev.verbs4j.rig.Commands;
import dev.verbs4j.rig.PeerResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Runs a command of the rig tests (bin/verbs4j, possibly inside a network namespace) and keeps its output. */
public record RigProcess(int exitCode, String output) {

    /** bin/verbs4j of this checkout; surefire runs in the module directory. */
    public static Path launcher() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("bin/verbs4j");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("bin/verbs4j not found above " + Path.of("").toAbsolutePath());
    }

    /** Runs the command through the rig harness (bounded, the process tree killed on time-out); its stdout only. */
    public static RigProcess run(List<String> command) {
        PeerResult result = Commands.exec(Duration.ofSeconds(300), command);
        if (result.timedOut()) {
            throw new IllegalStateException("timed out: " + command + ": " + result.describe());
        }
        return new RigProcess(result.exit(), result.stdout());
    }
}
