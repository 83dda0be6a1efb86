package dev.verbs4j.guest.shm;

/**
 * The messages this side wrote to its ring and the peer has not taken yet, in ring order: each
 * one's operation id and the ring position after it. A message's send completes when the peer's
 * position passes that end: then its credit, and its room in the ring, come back. Arrays, so
 * nothing is allocated per message.
 *
 * <p>Written under the channel's producer lock; {@link #isEmpty} may be read without it.
 */
final class SendsInFlight {
    private final long[] ends;
    private final long[] ids;
    private final long[] taken;
    private int first;
    private volatile int count;

    SendsInFlight(int depth) {
        this.ends = new long[depth];
        this.ids = new long[depth];
        this.taken = new long[depth];
    }

    void add(long id, long end) {
        int c = count;
        if (c == ids.length) {
            throw new IllegalStateException("more sends in flight than send credits");
        }
        int at = (first + c) % ids.length;
        ids[at] = id;
        ends[at] = end;
        count = c + 1;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /**
     * Takes the sends that end at or before {@code head} into {@link #taken()}; returns how
     * many (the first of {@link #taken()}'s entries).
     */
    int takeUpTo(long head) {
        int n = 0;
        int c = count;
        while (n < c && ends[first] <= head) {
            taken[n++] = ids[first];
            first = (first + 1) % ids.length;
        }
        count = c - n;
        return n;
    }

    /** The ids {@link #takeUpTo} took: valid until its next call (under the same lock). */
    long[] taken() {
        return taken;
    }
}
