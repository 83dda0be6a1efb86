package dev.verbs4j.rig;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One side of a rig test: a program started next to the test (a process, {@link PeerProcess}, or
 * a program on a thread of the test JVM), with every wait bounded. Closing it ends it if it still
 * runs, so a failed test leaves nothing behind.
 */
public abstract class Peer implements AutoCloseable {
    /** Everything in the rig runs under TCG emulation, ~10x slower than native; JVM start-up included. */
    public static final long PROCESS_SECONDS = 150;

    /** How often the waits look again: what they wait for is a line or a listener, never a time. */
    private static final long POLL_MILLIS = 50;

    private final String name;

    protected Peer(String name) {
        this.name = name;
    }

    public final String name() {
        return name;
    }

    /** Waits at most {@code seconds} for the end; ends the program when it takes longer. */
    public abstract PeerResult await(long seconds) throws InterruptedException;

    /** Ends the program now (a process and all its descendants). */
    public abstract void kill();

    public abstract boolean isAlive();

    /** The process whose /proc/PID/net shows the program's sockets. */
    public abstract long pid();

    /** What the program printed on stdout so far. */
    public abstract String stdoutSoFar();

    /** Whether the condition holds yet; reads the system's own tables or the peer's output. */
    @FunctionalInterface
    public interface Probe {
        boolean holds() throws Exception;
    }

    /**
     * Waits until {@code probe} holds; fails the test when the program ends first or after
     * {@link #PROCESS_SECONDS} (then the program is ended and its output is in the message).
     */
    public final void awaitUntil(Probe probe, Supplier<String> notInTime) throws Exception {
        awaitUntil(probe, PROCESS_SECONDS, notInTime);
    }

    /** As {@link #awaitUntil(Probe, Supplier)}, within {@code seconds}. */
    public final void awaitUntil(Probe probe, long seconds, Supplier<String> notInTime) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!probe.holds()) {
            if (!isAlive()) {
                throw new AssertionError(name + " ended before " + notInTime.get() + ": " + await(1).describe());
            }
            if (System.nanoTime() > deadline) {
                kill();
                throw new AssertionError("not in time: " + notInTime.get() + ": " + await(1).describe());
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** Waits until the program has printed {@code text} on stdout (a server's "listening on" line). */
    public final void awaitOutput(String text) throws Exception {
        awaitOutput(text, PROCESS_SECONDS);
    }

    /** As {@link #awaitOutput(String)}, within {@code seconds}. */
    public final void awaitOutput(String text, long seconds) throws Exception {
        awaitUntil(() -> stdoutSoFar().contains(text), seconds, () -> "printing '" + text + "'");
    }

    @Override
    public void close() {
        if (isAlive()) {
            kill();
        }
    }
}
