package dev.verbs4j.loop;

import java.util.Locale;

/**
 * How a {@link CompletionLoop} waits for completions: the guest-side counterpart of PVRDMA's
 * asyncMode trade of CPU for latency.
 */
public enum CompletionMode {
    /** The loop spins on its completion queues and fds: lowest latency, one core busy. */
    BUSY_POLL,
    /** The loop sleeps in epoll_wait with its CQs armed; re-arms and drains after each event. */
    EVENT,
    /** Spin for a bounded time after the last completion, then sleep as EVENT does. */
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
