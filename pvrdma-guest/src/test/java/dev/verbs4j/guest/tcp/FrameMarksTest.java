package dev.verbs4j.guest.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The send queue's marks: taken in order once their frame's end is written, across wrap-around and growth. */
class FrameMarksTest {

    @Test
    void marksComeOutInOrderOnceWrittenThroughWrapAroundAndGrowth() {
        FrameMarks marks = new FrameMarks();
        WrittenFrames out = new WrittenFrames();
        List<String> ran = new ArrayList<>();
        List<Long> completed = new ArrayList<>();
        long end = 0;
        long next = 0; // the next mark expected out
        long added = 0;
        // 10 rounds: add 7 marks (every third an action, the rest operations), take up to 5 behind;
        // the ring (16) wraps, then grows while wrapped
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 7; i++, added++) {
                end += 100;
                String name = "action " + added;
                marks.add(end, added % 3 == 0 ? FrameMarks.NO_OPERATION : added,
                        added % 3 == 0 ? () -> ran.add(name) : null);
            }
            long writtenUpTo = (added - 5) * 100 + 50; // frames ending at or before this are out
            marks.takeWritten(writtenUpTo, out);
            for (int i = 0; i < out.operationCount(); i++) {
                completed.add(out.operation(i));
            }
            out.runAndClear(null);
            assertTrue(out.isEmpty());
            for (; next < added - 5; next++) {
                if (next % 3 == 0) {
                    assertTrue(ran.remove("action " + next), "action " + next + " ran in round " + round);
                } else {
                    assertEquals(next, completed.removeFirst(), "operation order in round " + round);
                }
            }
            assertTrue(ran.isEmpty() && completed.isEmpty(), "nothing beyond what is written, round " + round);
        }
        marks.takeWritten(Long.MAX_VALUE, out);
        assertEquals(5 - 2, out.operationCount(), "the last five: three operations, two actions");
        out.runAndClear(null);
        assertEquals(2, ran.size());
    }
}
