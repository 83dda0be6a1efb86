package dev.verbs4j.guest;

import dev.verbs4j.guest.loop.CompletionLoop;
import java.util.Locale;

/**
 * How a {@link CompletionLoop} waits for completions: the guest-side counterpart of PVRDMA's
 * asyncMode trade of CPU for latency.
 */
public enum CompletionMode {
    /** A dedicated platform thread spins on poll_cq (or selectNow): lowest latency, one core busy. */
    BUSY_POLL,
    /** Block on the completion channel (or selector); re-arm and drain after each event. */
    EVENT,
    /** Spin for a bounded time after the last completion, then block as EVENT does. */
    ADAPTIVE;

    /**
     * Parses "busy", "event" or "adaptive" (or the enum names), as on the command line.
     *
     * @param text the word, any case
     * @return the mode
     * @throws IllegalArgumentException for any other word
     */
    public static CompletionMode parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "busy", "busy_poll", "busy-poll", "poll" -> BUSY_POLL;
            case "event", "events" -> EVENT;
            case "adaptive" -> ADAPTIVE;
            default -> throw new IllegalArgumentException("mode must be busy, event or adaptive, got '" + text + "'");
        };
    }

    /**
     * The name as the command line writes it.
     *
     * @return "busy", "event" or "adaptive"
     */
    public String label() {
        return this == BUSY_POLL ? "busy" : name().toLowerCase(Locale.ROOT);
    }
}
