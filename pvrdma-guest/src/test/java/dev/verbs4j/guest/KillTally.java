package dev.verbs4j.guest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What each kill of {@link PeerKilledAtRandomPointsRigTest} hit and how it ended, and the run's summary. */
final class KillTally {
    /** How a kill ended on the server when the peer died before it connected the channel. */
    private static final String NO_CONNECTION = "no connection";

    /**
     * One kill: where it was aimed and where it fell, how each of the peer's connections ended on
     * the server (the last is the killed one), the longest time from the kill to a server-side end,
     * how long {@code rdma resource show} took to come back, and the peer's phase lines.
     */
    record Kill(KillPoint point, String where, List<String> endedAs, long longestNanos, long settledNanos,
                List<StampedLines.Line> phases, List<PinnedMemoryWatch.Change> pins, long startedAt, long killedAt) {

        /** How the killed channel ended: its connection's outcome, or none when the peer died before connecting. */
        String killedEndedAs() {
            boolean connected = endedAs.size() > channelOfKill();
            return connected ? endedAs.getLast().replaceAll(" \\(.*", "") : NO_CONNECTION;
        }

        private int channelOfKill() {
            return Integer.parseInt(where.substring(where.lastIndexOf(' ') + 1));
        }

        @Override
        public String toString() {
            TreeMap<Long, String> events = new TreeMap<>();
            for (StampedLines.Line line : phases) {
                events.put(line.at(), line.text().substring("phase ".length()).replace(' ', '#'));
            }
            for (PinnedMemoryWatch.Change pin : pins) {
                events.merge(pin.at(), pin.pinnedKb() > 0 ? "pinned" : "unpinned", (x, y) -> x + "," + y);
            }
            StringBuilder timeline = new StringBuilder();
            events.forEach((at, what) -> timeline.append(String.format(" %s@%d", what, (at - startedAt) / 1_000_000)));
            return String.format("aimed at %s; killed in %s at %d ms; server: %s; kill to last end %d ms;"
                            + " rdma resource show back %d ms after the kill; peer's lines (ms from its start):%s",
                    point, where, (killedAt - startedAt) / 1_000_000, endedAs, longestNanos / 1_000_000,
                    settledNanos / 1_000_000, timeline);
        }
    }

    private final List<Kill> kills = new ArrayList<>();

    void add(Kill kill) {
        kills.add(kill);
    }

    /** One connection's end for the record: "PEER_LOST (57 messages)", "CONNECT_FAILED (why)". */
    static String endedAs(CheckingServer.Connection c) {
        if (c.setupFailure() != null) {
            return "CONNECT_FAILED (" + c.setupFailure().getMessage() + ")";
        }
        return c.end() == null ? "open" : c.end().error() + " (" + c.messages() + " messages)";
    }

    /** Kills per aimed phase, per phase hit and per ending, the longest kill-to-end of each ending, and the time. */
    /** How many kills were aimed at each phase. */
    String aimedAt() {
        Map<String, Integer> aimed = new TreeMap<>();
        kills.forEach(k -> aimed.merge(k.point().phase().word, 1, Integer::sum));
        return aimed.toString();
    }

    /** How the killed channels ended on the server, and the longest time from a kill to that end. */
    String endings() {
        Map<String, Integer> ended = new TreeMap<>();
        long longest = 0;
        for (Kill k : kills) {
            ended.merge(k.killedEndedAs(), 1, Integer::sum);
            longest = Math.max(longest, k.longestNanos() / 1_000_000);
        }
        return ended + ", each within " + longest + " ms of its kill";
    }

    String summary(int planned, long seed, double seconds) {
        Map<String, Integer> hit = new TreeMap<>(), ended = new TreeMap<>();
        Map<String, Long> longest = new TreeMap<>();
        long settled = 0;
        for (Kill k : kills) {
            hit.merge(k.where().replaceAll(" \\d+$", ""), 1, Integer::sum);
            ended.merge(k.killedEndedAs(), 1, Integer::sum);
            if (!k.killedEndedAs().equals(NO_CONNECTION)) {
                longest.merge(k.killedEndedAs(), k.longestNanos() / 1_000_000, Math::max);
            }
            settled = Math.max(settled, k.settledNanos() / 1_000_000);
        }
        return String.format("%d of %d kills in %.1f s (seed %d)%n  aimed at: %s%n  killed in: %s%n"
                        + "  the killed channel on the server: %s%n  longest from the kill to the server-side end (ms): %s%n"
                        + "  longest from the kill to rdma resource show as before: %d ms",
                kills.size(), planned, seconds, seed, aimedAt(), hit, ended, longest, settled);
    }
}
