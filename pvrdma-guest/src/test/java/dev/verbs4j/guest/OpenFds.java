package dev.verbs4j.guest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/** This process's open file descriptors, for the tests that check nothing is left open. */
public final class OpenFds {
    private static final Duration SETTLE = Duration.ofSeconds(10);

    private OpenFds() {}

    /** How many fds are open now (/proc/self/fd). */
    public static long count() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until no more fds are open than {@code before} (a channel's socket closes on its loop,
     * so it may take a moment), or fails saying how many are left. Fewer is fine: one open when
     * the count was taken may have closed late.
     */
    public static void awaitNoMoreThan(long before, String what) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        long now;
        while ((now = count()) > before && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
        if (now > before) {
            throw new AssertionError(what + ": " + before + " fds open before, " + now + " after");
        }
    }

    /** The soft limit on open fds (Max open files in /proc/self/limits). */
    public static long softLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no Max open files line in /proc/self/limits");
    }
}
