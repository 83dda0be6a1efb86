package dev.verbs4j.verbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.verbs4j.bindings.ibv_sge;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The {@code ibv_sge} arrays behind a prepared chain of send or receive work requests: a fixed
 * number of entries per request, written in place, with the bounds checks both chains share.
 *
 * <p>Each entry remembers the segment its bytes lie in (a registered region's memory, or for
 * inline data any native segment), not only the raw address: every change of address or length
 * is checked against that segment when it is made, and a post can ask whether the memory is
 * still alive ({@link #checkAlive}). An entry never filled has no segment and is refused at post.
 */
final class ScatterGatherTable {
    private static final long SGE_SIZE = ibv_sge.sizeof();
    private static final long SGE_ADDR = ibv_sge.addr$offset();
    private static final long SGE_LENGTH = ibv_sge.length$offset();
    private static final long SGE_LKEY = ibv_sge.lkey$offset();

    private final MemorySegment sges;
    private final int requests;
    private final int perRequest;
    /** per entry: the memory it points into (null: never filled), its bounds, the entry's current address and length */
    private final MemorySegment[] memory;
    private final long[] start;
    private final long[] end;
    private final long[] address;
    private final int[] length;
    /** per entry: filled with memory no region vouches for (lkey 0), usable by inline sends only */
    private final boolean[] unregistered;
    /** per request: how many entries it uses, whether it is sent inline, whether it may be posted */
    private final int[] used;
    private final boolean[] inline;
    private final boolean[] ready;
    /** requests not ready (an entry unfilled, or unregistered memory without INLINE): a post checks only while this is not 0 */
    private int unreadyRequests;

    ScatterGatherTable(Arena arena, int requests, int perRequest) {
        this.sges = arena.allocate(Math.max(1, SGE_SIZE * requests * perRequest), 8);
        this.requests = requests;
        this.perRequest = perRequest;
        int entries = requests * perRequest;
        this.memory = new MemorySegment[entries];
        this.start = new long[entries];
        this.end = new long[entries];
        this.address = new long[entries];
        this.length = new int[entries];
        this.unregistered = new boolean[entries];
        this.used = new int[requests];
        this.inline = new boolean[requests];
        this.ready = new boolean[requests];
        for (int wr = 0; wr < requests; wr++) {
            used[wr] = perRequest;
            ready[wr] = perRequest == 0;
        }
        unreadyRequests = perRequest == 0 ? 0 : requests;
    }

    int perRequest() {
        return perRequest;
    }

    /** What a work request's sg_list points at (NULL when requests carry no entries). */
    MemorySegment listOf(int wr) {
        return perRequest == 0 ? MemorySegment.NULL : sges.asSlice(wr * perRequest * SGE_SIZE);
    }

    /** Entry {@code sge} of request {@code wr}: {@code bytes} bytes at {@code at}, which must lie in {@code in}. */
    void set(int wr, int sge, MemorySegment in, long at, int bytes, int lkey) {
        set(wr, sge, in, at, bytes, lkey, false);
    }

    /** Entry {@code sge} of request {@code wr}: all of {@code in}, any live native memory, for inline sends only. */
    void setUnregistered(int wr, int sge, MemorySegment in) {
        if (!in.isNative()) {
            throw new IllegalArgumentException("inline data must be native memory (the provider reads it by address)");
        }
        if (in.byteSize() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("an SGE covers at most 2^31-1 bytes, the segment has " + in.byteSize());
        }
        set(wr, sge, in, in.address(), (int) in.byteSize(), 0, true);
    }

    private void set(int wr, int sge, MemorySegment in, long at, int bytes, int lkey, boolean noRegion) {
        int e = entry(wr, sge);
        long from = in.address();
        long to = from + in.byteSize();
        checkRange(at, bytes, from, to, in);
        memory[e] = in;
        start[e] = from;
        end[e] = to;
        address[e] = at;
        length[e] = bytes;
        unregistered[e] = noRegion;
        long off = e * SGE_SIZE;
        sges.set(JAVA_LONG, off + SGE_ADDR, at);
        sges.set(JAVA_INT, off + SGE_LENGTH, bytes);
        sges.set(JAVA_INT, off + SGE_LKEY, lkey);
        refresh(wr);
    }

    void length(int wr, int sge, int bytes) {
        int e = filledEntry(wr, sge);
        if (bytes < 0 || address[e] + bytes > end[e]) {
            checkRange(address[e], bytes, start[e], end[e], memory[e]);
        }
        length[e] = bytes;
        sges.set(JAVA_INT, e * SGE_SIZE + SGE_LENGTH, bytes);
    }

    void address(int wr, int sge, long at) {
        int e = filledEntry(wr, sge);
        checkRange(at, length[e], start[e], end[e], memory[e]);
        address[e] = at;
        sges.set(JAVA_LONG, e * SGE_SIZE + SGE_ADDR, at);
    }

    /** Sets how many of its entries request {@code wr} uses (0..perRequest). */
    void count(int wr, int count) {
        checkRequest(wr);
        if (count < 0 || count > perRequest) {
            throw new IllegalArgumentException("work request " + wr + " has room for " + perRequest
                    + " SGEs, asked to use " + count);
        }
        used[wr] = count;
        refresh(wr);
    }

    int count(int wr) {
        return used[wr];
    }

    /** Bytes the entries request {@code wr} uses cover. */
    long bytes(int wr) {
        long total = 0;
        int first = wr * perRequest;
        for (int s = 0; s < used[wr]; s++) {
            total += length[first + s];
        }
        return total;
    }

    /** Marks request {@code wr} as sent inline (its entries may then be unregistered memory). */
    void inline(int wr, boolean on) {
        inline[wr] = on;
        refresh(wr);
    }

    /** Requests that may not be posted as they are; 0 on the hot path. */
    int unreadyRequests() {
        return unreadyRequests;
    }

    /** Throws unless each of the first {@code count} requests may be posted. */
    void checkReady(int count) {
        for (int wr = 0; wr < count; wr++) {
            if (!ready[wr]) {
                throw notReady(wr);
            }
        }
    }

    private IllegalStateException notReady(int wr) {
        int first = wr * perRequest;
        for (int s = 0; s < used[wr]; s++) {
            if (memory[first + s] == null) {
                return new IllegalStateException("SGE " + s + " of work request " + wr + " was never filled; call "
                        + "sge(...) for each SGE the request uses, or sgeCount(...) to use fewer");
            }
        }
        return new IllegalStateException("work request " + wr + " gathers from memory of no registered region, "
                + "which only an INLINE send may do");
    }

    /**
     * Throws unless the memory of every entry request {@code wr} uses is still alive; returns the
     * one segment whose scope covers them all ({@code keep} if given and of the same scope), or
     * throws when they come from more than one arena.
     */
    MemorySegment checkAlive(int wr, MemorySegment keep) {
        int first = wr * perRequest;
        for (int s = 0; s < used[wr]; s++) {
            MemorySegment m = memory[first + s];
            if (!m.scope().isAlive()) {
                throw new IllegalStateException("SGE " + s + " of work request " + wr
                        + " points into memory that was freed (its arena is closed)");
            }
            if (keep == null) {
                keep = m;
            } else if (keep.scope() != m.scope() && !keep.scope().equals(m.scope())) {
                throw new IllegalArgumentException("the inline data of one post must come from the memory of one "
                        + "arena (it is kept alive for the duration of the post); post these requests separately");
            }
        }
        return keep;
    }

    void checkRequest(int wr) {
        if (wr < 0 || wr >= requests) {
            throw new IndexOutOfBoundsException("work request " + wr + " of a chain of " + requests);
        }
    }

    /** The address of {@code length} bytes at {@code offset} in an open region, or an exception. */
    static long addressIn(MemoryRegion mr, long offset, int length) {
        if (mr.isClosed()) {
            throw new IllegalStateException("memory region is closed");
        }
        if (offset < 0 || length < 0 || offset > mr.length() - length) {
            throw new IndexOutOfBoundsException("bytes " + offset + ".." + (offset + length) + " are outside " + mr);
        }
        return mr.address() + offset;
    }

    private void refresh(int wr) {
        int first = wr * perRequest;
        boolean ok = true;
        for (int s = 0; s < used[wr]; s++) {
            ok &= memory[first + s] != null && (inline[wr] || !unregistered[first + s]);
        }
        if (ok != ready[wr]) {
            unreadyRequests += ok ? -1 : 1;
            ready[wr] = ok;
        }
    }

    private static void checkRange(long at, int bytes, long from, long to, MemorySegment in) {
        if (!in.scope().isAlive()) {
            throw new IllegalStateException("the memory is freed (its arena is closed)");
        }
        if (bytes < 0 || at < from || at > to - bytes) {
            throw new IndexOutOfBoundsException(String.format("%d bytes at 0x%x are outside the memory at 0x%x..0x%x",
                    bytes, at, from, to));
        }
    }

    private int filledEntry(int wr, int sge) {
        int e = entry(wr, sge);
        if (memory[e] == null) {
            throw new IllegalStateException("SGE " + sge + " of work request " + wr + " was never filled; call sge(...) first");
        }
        return e;
    }

    private int entry(int wr, int sge) {
        checkRequest(wr);
        if (sge < 0 || sge >= perRequest) {
            throw new IndexOutOfBoundsException("SGE " + sge + " of " + perRequest + " per request");
        }
        return wr * perRequest + sge;
    }
}
