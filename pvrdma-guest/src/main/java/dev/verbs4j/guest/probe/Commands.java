package dev.verbs4j.guest.probe;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a small system tool (dpkg-query, rdma, modinfo) and returns what it printed, if it ran and
 * succeeded within a deadline. The deadline covers reading the output as well as the exit: a tool
 * that hangs, or prints and never exits, is killed and counts as "no answer".
 */
final class Commands {
    static final Duration DEADLINE = Duration.ofSeconds(5);

    private Commands() {}

    static Optional<String> output(List<String> command) {
        return output(command, DEADLINE);
    }

    static Optional<String> output(List<String> command, Duration deadline) {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            return Optional.empty(); // the tool is not installed
        }
        // read on another thread, so that a silent or endless child cannot hold this one past the deadline
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()),
                r -> Thread.ofVirtual().name("tool-output").start(r));
        long end = System.nanoTime() + deadline.toNanos();
        try {
            byte[] bytes = out.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
            if (!p.waitFor(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                kill(p);
                return Optional.empty();
            }
            return p.exitValue() == 0 ? Optional.of(new String(bytes, StandardCharsets.UTF_8).trim()) : Optional.empty();
        } catch (TimeoutException | ExecutionException e) {
            kill(p);
            return Optional.empty();
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The child and whatever it started (a shell's sleep keeps the pipe open otherwise). */
    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.getInputStream().close();
        } catch (IOException ignored) {
            // closing only releases the pipe; the child is gone or going
        }
    }
}
