package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.rig.ReliabilityRow;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A peer killed with SIGKILL at random points of its life ends as documented and leaves nothing
 * behind. The server is this JVM ({@link CheckingServer}, its channels on one shared loop); the
 * peer is a child JVM that lives a life of RDMA channels ({@link ChannelLifePeer}) and is killed
 * in the bootstrap, the RDMA connect, mid-stream or in the close of one of its first channels
 * ({@link KillPoint}). After each kill:
 * <ul>
 *   <li>every connection the server took from the peer is done within a bound: a channel set up
 *   ended with {@link ChannelError#PEER_LOST}, or {@link ChannelError#PEER_CLOSED} when the
 *   peer's close had said goodbye (then with every message); a set-up in progress failed with
 *   {@link ChannelError#CONNECT_FAILED}; the channels before the killed one ended
 *   PEER_CLOSED with every message;</li>
 *   <li>every message the server took was whole, in order, once ({@link SequencedMessage});</li>
 *   <li>the server goes on serving: a channel from this JVM to it carries messages and closes;</li>
 *   <li>{@code rdma resource show} (and this JVM's verbs fds) come back to what they were
 *   before the peer started, within a bound (the kernel frees a dead process's objects on its
 *   own time).</li>
 * </ul>
 * Each kill costs a JVM start and its first, cold connect (a killed process cannot be reused):
 * 13 s in the rig, 30 s when the host is busy. {@code -Dkill.count=N} sets the number of kills
 * (default 6, the phases in turn), {@code -Dkill.seed=S} replays a run's choices (the seed is
 * printed first); {@code ci/faults --only kill} runs 100.
 */
@Tag("rdma")
class PeerKilledAtRandomPointsRigTest {
    private static final String HOST = "127.0.0.1";
    private static final String DEVICE = System.getenv().getOrDefault("RIG_DEVICE", "rxe0");
    private static final int MAX_MESSAGE = 16 * 1024;
    /** Messages each channel of the peer's life carries. */
    private static final int MESSAGES = 100;
    /** Messages of the channel that shows the server still serves. */
    private static final int CHECK_MESSAGES = 20;
    private static final int KILLS = Integer.getInteger("kill.count", 6);
    private static final long SEED = Long.getLong("kill.seed", System.nanoTime());

    /** The peer's start (a cold JVM in the emulated rig) and its way to the kill point. */
    private static final Duration PEER_WAIT = Duration.ofSeconds(120);
    /**
     * From the kill to the end of each connection the server took from the peer: the peer's
     * socket closes with it, and every wait of the set-up (the RDMA probe's included) and the
     * channel's control connection see that at once (RdmaChannel gives operations in flight 1 s
     * to report first; the server has none). The rest is room for the emulated CPU of a busy host
     * (the longest seen: 0.33 s); it is shorter than the RDMA connect timeout (5 s), which a probe
     * blind to the socket used to wait out.
     */
    private static final Duration END_BOUND = Duration.ofSeconds(3);
    /** From the kill to {@code rdma resource show} as before the peer. */
    private static final Duration RESOURCES_BOUND = Duration.ofSeconds(30);

    private static final Pattern PHASE = Pattern.compile("phase (\\w+) (\\d+)");

    @Test
    void aPeerKilledAnywhereEndsItsChannelsAsDocumentedAndLeavesNothingBehind() throws Exception {
        System.out.printf("%d kills, seed %d (-Dkill.seed=%d replays the choices)%n", KILLS, SEED, SEED);
        long start = System.nanoTime();
        Random random = new Random(SEED);
        int firstPhase = random.nextInt(KillPoint.Phase.values().length);
        KillTally tally = new KillTally();
        ChannelConfig serving = ChannelLifePeer.config(DEVICE, MAX_MESSAGE).connectTimeout(ChannelPeerProcess.BOOTSTRAP_WAIT);
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            try (CheckingServer server = new CheckingServer(serving.loop(loop), MAX_MESSAGE)) {
                assertServes(server, -1); // the loop's device is open from here on, as in every count below
                for (int i = 0; i < KILLS; i++) {
                    KillPoint point = KillPoint.draw(i, firstPhase, random);
                    try {
                        tally.add(killOnce(server, i, point));
                    } catch (AssertionError | Exception e) {
                        throw new AssertionError("kill " + i + " (" + point + ", seed " + SEED + "): " + e.getMessage(), e);
                    }
                }
                assertEquals(List.of(), server.acceptErrors(), "accepts that failed");
                reliabilityRow(tally, server.connections());
            }
        }
        System.out.println(tally.summary(KILLS, SEED, (System.nanoTime() - start) / 1e9));
    }

    /** One line for the README's reliability table: the kills, the messages and bytes the server checked, none lost. */
    private static void reliabilityRow(KillTally tally, List<CheckingServer.Connection> connections) {
        long messages = 0, bytes = 0;
        for (CheckingServer.Connection c : connections) {
            for (int i = 0; i < c.messages(); i++) {
                bytes += SequencedMessage.size(i, MAX_MESSAGE);
            }
            messages += c.messages();
        }
        ReliabilityRow.print("process, RDMA", "SIGKILL of the peer at random points",
                KILLS + " kills: " + tally.aimedAt(), messages, bytes, 0, tally.endings());
    }

    private KillTally.Kill killOnce(CheckingServer server, int index, KillPoint point) throws Exception {
        RdmaResourceCounts before = RdmaResourceCounts.now();
        int first = server.connections().size();
        long startedAt = System.nanoTime();
        Process peer = new ProcessBuilder(ChannelLifePeer.command(HOST, server.port(), DEVICE, MAX_MESSAGE, MESSAGES))
                .redirectErrorStream(true).start();
        peer.getOutputStream().close();
        StampedLines out = new StampedLines(peer.getInputStream(), "peer-" + index);
        long killedAt;
        String where;
        List<PinnedMemoryWatch.Change> pins;
        try (PinnedMemoryWatch pinned = new PinnedMemoryWatch(peer.pid())) {
            long from = awaitKillPoint(peer, out, pinned, point);
            long wait = from + TimeUnit.MILLISECONDS.toNanos(point.delayMillis()) - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(Duration.ofNanos(wait)); // the random point itself: nothing to wait for but time
            }
            killedAt = System.nanoTime();
            peer.destroyForcibly(); // SIGKILL
            assertTrue(peer.waitFor(30, TimeUnit.SECONDS), "the killed peer did not end");
            assertTrue(out.awaitEnd(System.nanoTime() + Duration.ofSeconds(30).toNanos()));
            where = killedIn(out, killedAt, pinned);
            pins = pinned.changes();
        } finally {
            peer.destroyForcibly();
        }

        assertServes(server, -2 - index); // taken after what the peer left in the accept queue
        List<CheckingServer.Connection> all = server.connections();
        List<CheckingServer.Connection> peers = all.subList(first, all.size() - 1);
        List<CheckingServer.Connection> open = server.awaitDone(killedAt + END_BOUND.toNanos());
        assertEquals(List.of(), open, "connections still open after the kill; the peer printed:\n" + out.text());
        long longest = assertEndedAsDocumented(peers, where, killedAt, out);

        long settledIn = awaitResources(before, killedAt);
        KillTally.Kill kill = new KillTally.Kill(point, where, peers.stream().map(KillTally::endedAs).toList(),
                longest, settledIn, out.starting("phase "), pins, startedAt, killedAt);
        System.out.println("kill " + index + ": " + kill);
        return kill;
    }

    /**
     * Waits for the line that starts {@code point}'s phase, and for the RDMA connect then for the
     * peer's buffers to be pinned; when it came (nanoTime).
     */
    private static long awaitKillPoint(Process peer, StampedLines out, PinnedMemoryWatch pinned, KillPoint point)
            throws Exception {
        long deadline = System.nanoTime() + PEER_WAIT.toNanos();
        String text = point.phase().line(point.channel());
        StampedLines.Line line = out.await(text, deadline);
        if (line == null) {
            fail("the peer did not reach '" + text + "' (alive: " + peer.isAlive() + "); it printed:\n" + out.text());
        }
        if (point.phase() != KillPoint.Phase.RDMA_CONNECT) {
            return line.at();
        }
        long at = pinned.awaitGrowth(line.at(), deadline);
        if (at < 0) {
            fail("the peer's memory was never pinned after '" + text + "'; it printed:\n" + out.text());
        }
        return at;
    }

    /**
     * Where the kill fell: the phase of the peer's last line before it; a bootstrap in which the
     * peer had pinned its channel's buffers before the kill was in its RDMA connect.
     */
    private static String killedIn(StampedLines out, long killedAt, PinnedMemoryWatch pinned) {
        StampedLines.Line last = out.lastBefore("phase ", killedAt);
        assertNotNull(last, "killed before the peer's first line:\n" + out.text());
        Matcher m = PHASE.matcher(last.text());
        assertTrue(m.matches(), last.text());
        String phase = switch (m.group(1)) {
            case "bootstrap" -> pinned.growthBetween(last.at(), killedAt) >= 0 ? "rdma-connect" : "bootstrap";
            case "closed" -> "after close";
            default -> m.group(1);
        };
        return phase + " " + m.group(2);
    }

    /**
     * The server's connections from the peer ended as documented for where the kill fell; returns
     * the longest time from the kill to the end of one that ended after it (nanoseconds).
     */
    private static long assertEndedAsDocumented(List<CheckingServer.Connection> peers, String where, long killedAt,
                                                StampedLines out) {
        String story = "killed in " + where + "; server: " + peers + "; the peer printed:\n" + out.text();
        int channel = Integer.parseInt(where.substring(where.lastIndexOf(' ') + 1));
        if (where.startsWith("bootstrap")) { // before or after its TCP connect
            assertTrue(peers.size() == channel || peers.size() == channel + 1, "connections from the peer: " + story);
        } else {
            assertEquals(channel + 1, peers.size(), "connections from the peer: " + story);
        }
        long longest = 0;
        for (int n = 0; n < peers.size(); n++) {
            CheckingServer.Connection c = peers.get(n);
            assertNull(c.broken(), story);
            if (n < channel) {
                assertNotNull(c.end(), story);
                assertEquals(ChannelError.PEER_CLOSED, c.end().error(), "a channel before the killed one: " + story);
                assertEquals(MESSAGES, c.messages(), "a channel before the killed one: " + story);
            } else if (c.setupFailure() != null) {
                assertEquals(ChannelError.CONNECT_FAILED, c.setupFailure().error(), story);
                assertTrue(where.startsWith("bootstrap") || where.startsWith("rdma-connect"),
                        "a set-up failed outside the bootstrap: " + story);
            } else {
                ChannelError error = c.end().error();
                assertTrue(error == ChannelError.PEER_LOST || error == ChannelError.PEER_CLOSED, story);
                if (error == ChannelError.PEER_CLOSED) {
                    assertEquals(MESSAGES, c.messages(), "an orderly close after every message: " + story);
                    assertTrue(where.startsWith("close") || where.startsWith("after close"),
                            "PEER_CLOSED without a close: " + story);
                }
                if (where.startsWith("stream")) {
                    assertEquals(ChannelError.PEER_LOST, error, story);
                }
            }
            if (c.doneAt() > killedAt) {
                long took = c.doneAt() - killedAt;
                assertTrue(took <= END_BOUND.toNanos(), "ended " + took / 1_000_000 + " ms after the kill, more than "
                        + END_BOUND + ": " + story);
                longest = Math.max(longest, took);
            }
        }
        return longest;
    }

    /** A channel from this JVM, numbered {@code number}, carries its messages and closes in order: the server serves. */
    private static void assertServes(CheckingServer server, int number) throws Exception {
        ChannelConfig client = ChannelLifePeer.config(DEVICE, MAX_MESSAGE).connectTimeout(ChannelPeerProcess.BOOTSTRAP_WAIT);
        MemorySegment buffer = Arena.ofAuto().allocate(MAX_MESSAGE);
        try (Channel channel = ChannelConnector.connect(HOST, server.port(), client)) {
            for (int i = 0; i < CHECK_MESSAGES; i++) {
                channel.send(buffer.asSlice(0, SequencedMessage.write(buffer, number, i, MAX_MESSAGE)))
                        .get(30, TimeUnit.SECONDS);
            }
        }
        List<CheckingServer.Connection> all = server.connections();
        CheckingServer.Connection mine = all.getLast();
        assertEquals(List.of(), server.awaitDone(System.nanoTime() + END_BOUND.toNanos()).stream()
                .filter(c -> c == mine).toList(), "the check channel did not end on the server");
        assertNotNull(mine.end(), mine.toString());
        assertEquals(ChannelError.PEER_CLOSED, mine.end().error(), mine.toString());
        assertEquals(number, mine.channelNumber(), mine.toString());
        assertEquals(CHECK_MESSAGES, mine.messages(), mine.toString());
        assertNull(mine.broken(), mine.toString());
    }

    /** Waits until the kernel's counts (and this JVM's verbs fds) are {@code before}'s again; nanoseconds from the kill. */
    private static long awaitResources(RdmaResourceCounts before, long killedAt) throws Exception {
        long deadline = killedAt + RESOURCES_BOUND.toNanos();
        while (true) {
            RdmaResourceCounts now = RdmaResourceCounts.now();
            if (now.sameAs(before)) {
                return System.nanoTime() - killedAt;
            }
            assertTrue(System.nanoTime() < deadline, "rdma resource show not back within " + RESOURCES_BOUND
                    + "\nbefore " + before + "\nnow    " + now);
        }
    }
}
