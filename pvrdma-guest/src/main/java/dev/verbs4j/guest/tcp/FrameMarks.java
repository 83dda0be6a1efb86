package dev.verbs4j.guest.tcp;

import java.util.Arrays;

/**
 * The queued frames something waits for, in the order of their last byte in the send queue: an
 * operation to complete (its id) or an action to run. A ring of plain arrays, so a mark and its
 * end allocate nothing; it grows, rarely, past the operations in flight. Not thread-safe: the
 * channel's write lock guards it.
 */
final class FrameMarks {
    static final long NO_OPERATION = -1;

    private long[] ends = new long[16];
    private long[] operations = new long[16];
    private Runnable[] actions = new Runnable[16];
    private int first;
    private int count;

    /** The frame ending at queue position {@code end} completes {@code operation} (or {@link #NO_OPERATION}) and runs {@code action} (or null). */
    void add(long end, long operation, Runnable action) {
        if (count == ends.length) {
            grow();
        }
        int at = (first + count) & (ends.length - 1);
        ends[at] = end;
        operations[at] = operation;
        actions[at] = action;
        count++;
    }

    /** Moves the marks of the frames that are out by queue position {@code written} to {@code out}. */
    void takeWritten(long written, WrittenFrames out) {
        while (count > 0 && ends[first] <= written) {
            out.add(operations[first], actions[first]);
            actions[first] = null;
            first = (first + 1) & (ends.length - 1);
            count--;
        }
    }

    void clear() {
        Arrays.fill(actions, null);
        first = count = 0;
    }

    private void grow() {
        int size = ends.length * 2;
        long[] newEnds = new long[size];
        long[] newOperations = new long[size];
        Runnable[] newActions = new Runnable[size];
        for (int i = 0; i < count; i++) {
            int from = (first + i) & (ends.length - 1);
            newEnds[i] = ends[from];
            newOperations[i] = operations[from];
            newActions[i] = actions[from];
        }
        ends = newEnds;
        operations = newOperations;
        actions = newActions;
        first = 0;
    }
}
