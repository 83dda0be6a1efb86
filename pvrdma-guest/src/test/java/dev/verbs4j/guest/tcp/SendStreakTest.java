package dev.verbs4j.guest.tcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link SendStreak}: which sends the TCP channel leaves to the loop to write in a batch. */
class SendStreakTest {
    private static final long SMALL = 70;
    private static final long GAP = 1_000; // well inside a stream's pause

    /** Sends {@code count} small frames {@link #GAP} apart from {@code now}, nothing read between; the time after. */
    private static long sendsInARow(SendStreak streak, int count, long reads, long now) {
        for (int i = 0; i < count; i++) {
            assertFalse(streak.batches(SMALL, reads, now), "send " + i + " of the run goes straight out");
            now += GAP;
        }
        return now;
    }

    @Test
    void smallSendsInARowAreBatchedAfterTheStreak() {
        SendStreak streak = new SendStreak();
        long now = sendsInARow(streak, SendStreak.STREAK, 0, 1_000_000);
        for (int i = 0; i < 100; i++) {
            assertTrue(streak.batches(SMALL, 0, now), "send " + (SendStreak.STREAK + i) + " is part of a stream");
            now += GAP;
        }
    }

    @Test
    void aSendAfterSomethingArrivedStartsOver() {
        SendStreak streak = new SendStreak();
        long now = sendsInARow(streak, SendStreak.STREAK, 0, 1_000_000);
        assertTrue(streak.batches(SMALL, 0, now));
        now = sendsInARow(streak, SendStreak.STREAK, 1, now + GAP); // the peer answered: a new run
        assertTrue(streak.batches(SMALL, 1, now));
    }

    @Test
    void aPauseEndsTheStream() {
        SendStreak streak = new SendStreak();
        long now = sendsInARow(streak, SendStreak.STREAK, 0, 1_000_000);
        assertTrue(streak.batches(SMALL, 0, now));
        now += SendStreak.PAUSE_NANOS;
        sendsInARow(streak, SendStreak.STREAK, 0, now);
    }

    @Test
    void thePauseRunsFromTheEndOfTheLastSend() {
        SendStreak streak = new SendStreak();
        long now = sendsInARow(streak, SendStreak.STREAK, 0, 1_000_000);
        assertTrue(streak.batches(SMALL, 0, now));
        streak.sentAt(now + SendStreak.PAUSE_NANOS); // a write that took that long
        assertTrue(streak.batches(SMALL, 0, now + SendStreak.PAUSE_NANOS + GAP), "the writing is not a pause");
    }

    @Test
    void largeFramesGoStraightOutWithoutEndingTheStream() {
        SendStreak streak = new SendStreak();
        long now = sendsInARow(streak, SendStreak.STREAK, 0, 1_000_000);
        assertFalse(streak.batches(SendStreak.SMALL_BELOW, 0, now), "a large frame's own write is large");
        assertTrue(streak.batches(SMALL, 0, now + GAP), "the small one behind it is still part of the stream");
    }
}
