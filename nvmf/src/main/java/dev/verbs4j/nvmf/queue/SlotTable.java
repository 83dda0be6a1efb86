package dev.verbs4j.nvmf.queue;

/**
 * The command slots of one queue: slot index = command id. A slot is reused only when both
 * halves are in: its send completed and its response arrived (the target may answer before the
 * send's completion is polled). Plain arrays, nothing allocated per command.
 */
final class SlotTable {
    static final int IN_USE = 1;
    static final int SENT = 2;
    static final int RESPONDED = 4;
    static final int DONE = IN_USE | SENT | RESPONDED;

    final int[] state;
    final int[] status;
    final long[] result;
    final long[] tag;
    final CommandListener[] listener;
    private final int[] free;
    private int freeTop;

    SlotTable(int slots) {
        state = new int[slots];
        status = new int[slots];
        result = new long[slots];
        tag = new long[slots];
        listener = new CommandListener[slots];
        free = new int[slots];
        for (int i = 0; i < slots; i++) {
            free[i] = slots - 1 - i;
        }
        freeTop = slots;
    }

    int size() {
        return state.length;
    }

    /** A free slot, or -1 when every slot is in flight. */
    int acquire() {
        if (freeTop == 0) {
            return -1;
        }
        int s = free[--freeTop];
        state[s] = IN_USE;
        status[s] = 0;
        result[s] = 0;
        listener[s] = null;
        return s;
    }

    void release(int slot) {
        if (state[slot] == 0) {
            throw new IllegalStateException("slot " + slot + " is not in use");
        }
        state[slot] = 0;
        listener[slot] = null;
        free[freeTop++] = slot;
    }

    int inFlight() {
        return state.length - freeTop;
    }
}
