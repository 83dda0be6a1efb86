package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.channel.ChannelOperations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a write pass found out: the operations to complete and the actions to run, gathered under
 * the channel's write lock and run after it is released. Each thread role that writes (the
 * loop's pass, the one lending sender) keeps its own and reuses it, so a pass allocates nothing.
 */
final class WrittenFrames {
    private long[] operations = new long[16];
    private int operationCount;
    private final List<Runnable> actions = new ArrayList<>();
    /** Between {@link #claim} and the end of {@link #runAndClear}. */
    private boolean inUse;

    /**
     * This, for one pass; a fresh one when this is still in use: a completion that runs the loop
     * from inside {@link #runAndClear} (its thread holds the loop's pass) may flush again.
     */
    WrittenFrames claim() {
        WrittenFrames frames = inUse ? new WrittenFrames() : this;
        frames.inUse = true;
        return frames;
    }

    void add(long operation, Runnable action) {
        if (operation != FrameMarks.NO_OPERATION) {
            if (operationCount == operations.length) {
                operations = Arrays.copyOf(operations, operationCount * 2);
            }
            operations[operationCount++] = operation;
        }
        if (action != null) {
            actions.add(action);
        }
    }

    int operationCount() {
        return operationCount;
    }

    long operation(int index) {
        return operations[index];
    }

    boolean isEmpty() {
        return operationCount == 0 && actions.isEmpty();
    }

    /**
     * Completes each operation in {@code channelOperations} (null: the caller has read them with
     * {@link #operation}, as the queue's tests do), runs each action, and empties this for the
     * next pass.
     */
    void runAndClear(ChannelOperations channelOperations) {
        try {
            for (int i = 0; channelOperations != null && i < operationCount; i++) {
                channelOperations.complete(operations[i]);
            }
            for (int i = 0; i < actions.size(); i++) { // by index: an iterator would be an allocation per pass
                actions.get(i).run();
            }
        } finally {
            operationCount = 0;
            actions.clear();
            inUse = false;
        }
    }
}
