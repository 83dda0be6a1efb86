package dev.verbs4j.verbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.verbs4j.bindings.ibv_sge;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The {@code ibv_sge} arrays behind a prepared chain of send or receive work requests: a fixed
 * number of entries per request, written in place, with the bounds checks both chains share.
 */
final class ScatterGatherTable {
    private static final long SGE_SIZE = ibv_sge.sizeof();
    private static final long SGE_ADDR = ibv_sge.addr$offset();
    private static final long SGE_LENGTH = ibv_sge.length$offset();
    private static final long SGE_LKEY = ibv_sge.lkey$offset();

    private final MemorySegment sges;
    private final int requests;
    private final int perRequest;

    ScatterGatherTable(Arena arena, int requests, int perRequest) {
        this.sges = arena.allocate(Math.max(1, SGE_SIZE * requests * perRequest), 8);
        this.requests = requests;
        this.perRequest = perRequest;
    }

    int perRequest() {
        return perRequest;
    }

    /** What a work request's sg_list points at (NULL when requests carry no entries). */
    MemorySegment listOf(int wr) {
        return perRequest == 0 ? MemorySegment.NULL : sges.asSlice(wr * perRequest * SGE_SIZE);
    }

    void set(int wr, int sge, long address, int length, int lkey) {
        long at = offset(wr, sge);
        sges.set(JAVA_LONG, at + SGE_ADDR, address);
        sges.set(JAVA_INT, at + SGE_LENGTH, length);
        sges.set(JAVA_INT, at + SGE_LKEY, lkey);
    }

    void length(int wr, int sge, int length) {
        sges.set(JAVA_INT, offset(wr, sge) + SGE_LENGTH, length);
    }

    void address(int wr, int sge, long address) {
        sges.set(JAVA_LONG, offset(wr, sge) + SGE_ADDR, address);
    }

    /** Bytes the first {@code used} entries of a request cover. */
    long bytes(int wr, int used) {
        long total = 0;
        for (int s = 0; s < used; s++) {
            total += Integer.toUnsignedLong(sges.get(JAVA_INT, offset(wr, s) + SGE_LENGTH));
        }
        return total;
    }

    /** A request may use 0..perRequest of its entries. */
    void checkCount(int wr, int count) {
        checkRequest(wr);
        if (count < 0 || count > perRequest) {
            throw new IllegalArgumentException("work request " + wr + " has room for " + perRequest
                    + " SGEs, asked to use " + count);
        }
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
        if (offset < 0 || length < 0 || offset + length > mr.length()) {
            throw new IndexOutOfBoundsException("bytes " + offset + ".." + (offset + length) + " are outside " + mr);
        }
        return mr.address() + offset;
    }

    private long offset(int wr, int sge) {
        checkRequest(wr);
        if (sge < 0 || sge >= perRequest) {
            throw new IndexOutOfBoundsException("SGE " + sge + " of " + perRequest + " per request");
        }
        return (wr * (long) perRequest + sge) * SGE_SIZE;
    }
}
