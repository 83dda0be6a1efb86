package dev.verbs4j.guest.transport;

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
        assertTrue(stream.continues(7, now + ReceiveStream.POLL_NANOS), "a poll that read and sent nothing goes on");
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
        assertFalse(stream.continues(1, now + GAP), "this end sent: no longer one way");
        readsInARow(stream, ReceiveStream.STREAK, 1, now + 2 * GAP);
    }

    @Test
    void afterAResetTheStreakIsCountedAgain() {
        ReceiveStream stream = new ReceiveStream();
        long now = readsInARow(stream, ReceiveStream.STREAK, 0, 1_000_000);
        assertTrue(stream.streams(0, now));
        stream.reset(); // a poll found nothing
        now = readsInARow(stream, ReceiveStream.STREAK, 0, now + GAP);
        assertTrue(stream.streams(0, now));
    }
}
