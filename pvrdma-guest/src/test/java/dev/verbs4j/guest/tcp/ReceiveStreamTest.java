package dev.verbs4j.guest.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link ReceiveStream}: when the loop polls a TCP channel's socket instead of being woken by it. */
class ReceiveStreamTest {
    private static final long GAP = 5_000; // well inside a stream's gap

    /** {@code count} reads {@link #GAP} apart from {@code now}, none making it a stream yet; the time after. */
    private static long readsInARow(ReceiveStream stream, int count, long sent, long now) {
        for (int i = 0; i < count; i++) {
            assertFalse(stream.streams(sent, now), "read " + i + " of the run is not a stream yet");
            now += GAP;
        }
        return now;
    }

    @Test
    void readsCloseBehindEachOtherWithNothingSentAreAStream() {
        ReceiveStream stream = new ReceiveStream();
        long now = readsInARow(stream, ReceiveStream.STREAK, 7, 1_000_000);
        assertTrue(stream.streams(7, now));
        assertTrue(stream.nextLook(4096, 7, now + ReceiveStream.POLL_NANOS) > 0,
                "a look that read and sent nothing goes on");
    }

    @Test
    void aSendBetweenReadsStartsOver() {
        ReceiveStream stream = new ReceiveStream();
        long now = readsInARow(stream, ReceiveStream.STREAK, 0, 1_000_000);
        now = readsInARow(stream, ReceiveStream.STREAK, 1, now); // this end answered: a new run
        assertTrue(stream.streams(1, now));
    }

    @Test
    void aGapStartsOver() {
        ReceiveStream stream = new ReceiveStream();
        long now = readsInARow(stream, ReceiveStream.STREAK, 0, 1_000_000);
        now = readsInARow(stream, ReceiveStream.STREAK, 0, now + ReceiveStream.GAP_NANOS);
        assertTrue(stream.streams(0, now));
    }

    @Test
    void aPollAfterASendEndsTheStreamAndTheCountStartsOver() {
        ReceiveStream stream = new ReceiveStream();
        long now = readsInARow(stream, ReceiveStream.STREAK, 0, 1_000_000);
        assertTrue(stream.streams(0, now));
        assertEquals(-1, stream.nextLook(4096, 1, now + GAP), "this end sent: no longer one way");
        readsInARow(stream, ReceiveStream.STREAK, 1, now + 2 * GAP);
    }

    @Test
    void afterAResetTheStreakIsCountedAgain() {
        ReceiveStream stream = new ReceiveStream();
        long now = readsInARow(stream, ReceiveStream.STREAK, 0, 1_000_000);
        assertTrue(stream.streams(0, now));
        stream.reset(); // the socket rejoined the set
        now = readsInARow(stream, ReceiveStream.STREAK, 0, now + GAP);
        assertTrue(stream.streams(0, now));
    }

    /** A stream whose reads come {@code gap} apart; the time of its last read, which made it a stream. */
    private static long streamWithGap(ReceiveStream stream, long gap) {
        long now = 1_000_000;
        for (int i = 0; i < ReceiveStream.STREAK; i++) {
            assertFalse(stream.streams(0, now));
            now += gap;
        }
        assertTrue(stream.streams(0, now));
        return now;
    }

    @Test
    void theFirstLookFollowsTheStreamsOwnPaceWithinBounds() {
        ReceiveStream slow = new ReceiveStream();
        streamWithGap(slow, 200_000); // an emulated guest's 4 KiB stream
        assertEquals(200_000, slow.pollNanos());
        ReceiveStream fast = new ReceiveStream();
        streamWithGap(fast, 5_000);
        assertEquals(ReceiveStream.POLL_NANOS, fast.pollNanos());
        ReceiveStream slowest = new ReceiveStream();
        streamWithGap(slowest, ReceiveStream.GAP_NANOS - 1);
        assertEquals(ReceiveStream.MAX_POLL_NANOS, slowest.pollNanos());
    }

    @Test
    void emptyLooksComeALittleLaterEachAndEndTheStreamAfterTheGap() {
        ReceiveStream stream = new ReceiveStream();
        long now = streamWithGap(stream, ReceiveStream.POLL_NANOS);
        long lastBytes = now;
        long delay = stream.pollNanos();
        int looks = 0;
        while (true) {
            now += delay;
            long next = stream.nextLook(0, 0, now);
            if (next < 0) {
                break;
            }
            assertEquals(Math.min(delay + delay / 4, ReceiveStream.MAX_POLL_NANOS), next,
                    "look " + looks + " waits a quarter longer for the next");
            delay = next;
            looks++;
        }
        assertTrue(now - lastBytes >= ReceiveStream.GAP_NANOS, "it ended only after the gap");
        assertTrue(looks <= 10, "a few empty looks, not one per " + ReceiveStream.POLL_NANOS + " ns: " + looks);
        assertFalse(stream.streams(0, now + 1), "after it ended, the count starts over");
    }

    @Test
    void looksThatReadShortenTheWaitAndALateOneGoesBackToTheShortest() {
        ReceiveStream stream = new ReceiveStream();
        long now = streamWithGap(stream, 400_000);
        assertEquals(400_000, stream.pollNanos());
        assertEquals(300_000, stream.nextLook(4096, 0, now += 400_000), "a quarter less after a look that read");
        assertEquals(ReceiveStream.POLL_NANOS, stream.nextLook(ReceiveStream.LATE_LOOK_BYTES, 0, now + 300_000),
                "a look that read this much came late");
        assertEquals(ReceiveStream.POLL_NANOS, stream.nextLook(4096, 0, now + 350_000), "never below the shortest");
    }

    @Test
    void aLookThatReadKeepsTheStreamGoingPastTheGap() {
        ReceiveStream stream = new ReceiveStream();
        long now = streamWithGap(stream, ReceiveStream.POLL_NANOS);
        for (int i = 0; i < 10; i++) {
            now += ReceiveStream.GAP_NANOS / 2;
            assertTrue(stream.nextLook(0, 0, now) > 0, "nothing yet, within the gap");
            now += ReceiveStream.GAP_NANOS / 2 - 1;
            assertTrue(stream.nextLook(4096, 0, now) > 0, "bytes: the gap starts again");
        }
    }
}
