package dev.verbs4j.rig;

import java.util.List;

/** How a {@link Peer} ended: its status (-1 when it was ended for taking too long) and its output. */
public record PeerResult(String name, int exit, boolean timedOut, String stdout, String stderr) {

    /** The whole story for a failure message: name, status, stdout and stderr. */
    public String describe() {
        return name + (timedOut ? " TIMED OUT" : " exit " + exit) + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }

    public boolean succeeded() {
        return !timedOut && exit == 0;
    }

    public void assertSuccess() {
        if (!succeeded()) {
            throw new AssertionError("expected success: " + describe());
        }
    }

    /** A non-zero exit, not a hang. */
    public void assertFailure() {
        if (timedOut || exit == 0) {
            throw new AssertionError("expected a non-zero exit, not a hang: " + describe());
        }
    }

    /** The lines of stdout that start with {@code prefix}. */
    public List<String> lines(String prefix) {
        return stdout.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    /** Both sides ended with status 0; otherwise the message shows both sides' output. */
    public static void assertBothSucceeded(PeerResult server, PeerResult client) {
        if (!server.succeeded() || !client.succeeded()) {
            throw new AssertionError("expected both sides to succeed:\n" + server.describe() + "\n" + client.describe());
        }
    }
}
