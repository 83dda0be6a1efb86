package dev.verbs4j.rig;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** Runs the rig's own tools (ip, rdma, nvme, dd, bash scripts) to their end, within a bound. */
public final class Commands {
    /** Long enough for any tool under the rig's emulation; a hang still ends. */
    public static final Duration TIMEOUT = Duration.ofSeconds(60);

    private Commands() {}

    /** Runs {@code command}; returns its stdout; fails the test on a non-zero exit or after {@link #TIMEOUT}. */
    public static String run(String... command) {
        return run(TIMEOUT, List.of(command));
    }

    /** As {@link #run(String...)}, with another bound. */
    public static String run(Duration timeout, List<String> command) {
        PeerResult result = exec(timeout, command);
        if (!result.succeeded()) {
            throw new AssertionError(String.join(" ", command) + " failed: " + result.describe());
        }
        return result.stdout();
    }

    /** {@code bash -c script}; as {@link #run(String...)}. */
    public static String sh(String script) {
        return run("bash", "-c", script);
    }

    /** Runs {@code command} to its end (killed after {@code timeout}) and returns how it ended, whatever that was. */
    public static PeerResult exec(Duration timeout, List<String> command) {
        String name = command.getFirst();
        try (PeerProcess process = PeerProcess.start(name, command)) {
            return process.await(Math.max(1, timeout.toSeconds()));
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + String.join(" ", command), e);
        }
    }
}
