package dev.verbs4j.guest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    /** Runs the command with stdout only (the JVM's "Picked up ..." notes go to stderr). */
    public static RigProcess run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + command);
        }
        return new RigProcess(p.exitValue(), out);
    }
}
