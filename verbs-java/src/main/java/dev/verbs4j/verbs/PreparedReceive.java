package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_recv_wr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A chain of receive work requests ({@code ibv_recv_wr} + {@code ibv_sge}) built once in native
 * memory and posted without allocating, to a QP's receive queue or to an SRQ, from
 * {@link QueuePair#prepareReceive(int, int)} or {@link SharedReceiveQueue#prepareReceive(int, int)}.
 * Same rules as {@link PreparedSend}: reusable as soon as post returns.
 *
 * <p>A UD receive buffer must have 40 bytes in front of the payload: the device writes the
 * global route header there.
 *
 * <p><b>Ownership.</b> The caller owns it and its native memory, and closes it before the QP or
 * SRQ. The regions its entries name are not owned: they must stay open until the receives
 * complete (the device writes into them).
 *
 * <p><b>Threads.</b> Not thread-safe: one thread at a time, which also closes it.
 */
public final class PreparedReceive implements AutoCloseable {
    private static final long WR_SIZE = ibv_recv_wr.sizeof();
    private static final long WR_ID = ibv_recv_wr.wr_id$offset();
    private static final long NEXT = ibv_recv_wr.next$offset();
    private static final long SG_LIST = ibv_recv_wr.sg_list$offset();
    private static final long NUM_SGE = ibv_recv_wr.num_sge$offset();

    private final NativeObject target;
    private final ProtectionDomain pd;
    private final MemorySegment postFn;
    private final long postAt;
    private final String verb;
    private final Arena arena;
    private final MemorySegment chain;
    private final ScatterGatherTable sges;
    private final MemorySegment badWr;
    /** chain and badWr as the plain addresses post_recv takes (see ContextOps) */
    private final long chainAddress;
    private final long badWrAddress;
    private final int length;
    /** Set by close; read on every post instead of the arena's scope (two interface calls under C1). */
    private volatile boolean closed;

    /**
     * A chain for {@code target} (a QP or SRQ of {@code pd}), whose queue holds {@code maxWr}
     * receives ({@code limit} names that limit) of at most {@code maxSge} entries each.
     */
    PreparedReceive(NativeObject target, ProtectionDomain pd, MemorySegment postFn, String verb, int chainLength,
                    int sgesPerRequest, int maxWr, int maxSge, String limit) {
        if (chainLength < 1 || chainLength > maxWr) {
            throw new IllegalArgumentException("a chain of " + chainLength + " receives cannot fit a receive queue of "
                    + maxWr + " (" + limit + "); it needs 1.." + maxWr);
        }
        if (sgesPerRequest < 0 || sgesPerRequest > maxSge) {
            throw new IllegalArgumentException("receives here take 0.." + maxSge + " SGEs each, asked for "
                    + sgesPerRequest);
        }
        if (!ContextOps.provided(postFn)) {
            throw new UnsupportedOperationException("the provider has no " + verb);
        }
        this.target = target;
        this.pd = pd;
        this.postFn = postFn;
        this.postAt = postFn.address();
        this.verb = verb;
        this.length = chainLength;
        this.arena = Arena.ofShared();
        this.chain = arena.allocate(WR_SIZE * chainLength, 8);
        this.sges = new ScatterGatherTable(arena, chainLength, sgesPerRequest);
        this.badWr = arena.allocate(ADDRESS);
        this.chainAddress = chain.address();
        this.badWrAddress = badWr.address();
        for (int i = 0; i < chainLength; i++) {
            long wr = i * WR_SIZE;
            chain.set(ADDRESS, wr + NEXT, i + 1 < chainLength ? chain.asSlice(wr + WR_SIZE) : MemorySegment.NULL);
            chain.set(ADDRESS, wr + SG_LIST, sges.listOf(i));
            chain.set(JAVA_INT, wr + NUM_SGE, sgesPerRequest);
        }
    }

    /**
     * Number of work requests in the chain.
     *
     * @return the chain length fixed at creation, at least 1
     */
    public int size() {
        return length;
    }

    /**
     * Sets the id that the request's completion will carry.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param wrId any value; the library does not interpret it
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     */
    public PreparedReceive wrId(int wr, long wrId) {
        checkWr(wr);
        chain.set(JAVA_LONG, wr * WR_SIZE + WR_ID, wrId);
        return this;
    }

    /**
     * How many of the request's SGEs are used (0 for a receive that takes no data, e.g. of an
     * RDMA_WRITE_WITH_IMM).
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param count 0 to the SGEs per request given at creation
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IllegalArgumentException if {@code count} is out of range
     */
    public PreparedReceive sgeCount(int wr, int count) {
        sges.count(wr, count);
        chain.set(JAVA_INT, wr * WR_SIZE + NUM_SGE, count);
        return this;
    }

    /**
     * Where received bytes go: {@code length} bytes at {@code offset} in {@code mr}.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param sge    index of the entry within the request, from 0
     * @param mr     the registered region (with LOCAL_WRITE); it must stay open until the receive completes
     * @param offset byte offset in the region
     * @param length room for that many bytes
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IndexOutOfBoundsException if {@code sge} is out of range or the bytes lie outside the region
     * @throws IllegalStateException if {@code mr} is closed
     */
    public PreparedReceive sge(int wr, int sge, MemoryRegion mr, long offset, int length) {
        sges.set(wr, sge, mr.memory(), ScatterGatherTable.addressIn(mr, offset, length), length, mr.lkey());
        return this;
    }

    /**
     * Where received bytes go, by address: inside the open region of the PD whose lkey is {@code lkey}.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param sge     index of the entry within the request, from 0
     * @param address virtual address of the first byte
     * @param length  room for that many bytes
     * @param lkey    the lkey of the region holding them
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IllegalArgumentException if no open region of the PD has this lkey
     * @throws IndexOutOfBoundsException if {@code sge} is out of range or the bytes lie outside that region
     */
    public PreparedReceive sge(int wr, int sge, long address, int length, int lkey) {
        MemoryRegion mr = pd.regionHolding(lkey, address, length);
        sges.set(wr, sge, mr.memory(), address, length, lkey);
        return this;
    }

    /**
     * A new length for an entry already filled; it must stay inside the entry's memory.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param sge    index of the entry within the request, from 0
     * @param length the new byte count
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} or {@code sge} is out of range, or the new bytes
     *         lie outside the entry's memory
     * @throws IllegalStateException if the entry was never filled
     */
    public PreparedReceive length(int wr, int sge, int length) {
        sges.length(wr, sge, length);
        return this;
    }

    /**
     * A new address for an entry already filled; it must stay inside the entry's memory.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param sge     index of the entry within the request, from 0
     * @param address the new virtual address of the first byte
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} or {@code sge} is out of range, or the new bytes
     *         lie outside the entry's memory
     * @throws IllegalStateException if the entry was never filled
     */
    public PreparedReceive address(int wr, int sge, long address) {
        sges.address(wr, sge, address);
        return this;
    }

    /**
     * {@link #wrId(int, long)} for request 0.
     *
     * @param wrId any value; the completion carries it
     * @return this, for chaining
     */
    public PreparedReceive wrId(long wrId) {
        return wrId(0, wrId);
    }

    /**
     * Posts the whole chain; see {@link #post(int)}.
     *
     * @throws IllegalStateException if this object, the QP/SRQ or a region is closed, or an SGE was
     *         never filled
     * @throws WorkRequestException if the provider rejects a request (queue full, wrong QP state...)
     */
    public void post() {
        post(length);
    }

    /**
     * Posts the first {@code count} requests ({@code ibv_post_recv} or {@code ibv_post_srq_recv}).
     * The QP or SRQ is held open for the call, as for sends. Allocates nothing once every request is
     * filled.
     *
     * @param count how many requests to post, 1 to {@link #size()}
     * @throws IllegalArgumentException if {@code count} is out of range
     * @throws IllegalStateException if this object, the QP/SRQ or a region is closed, the memory of an
     *         SGE was freed, or an SGE was never filled
     * @throws WorkRequestException if the provider rejects a request: those before
     *         {@link WorkRequestException#index()} were posted
     */
    public void post(int count) {
        if (count < 1 || count > length) {
            throw new IllegalArgumentException("can post 1.." + length + " requests of this chain, asked for " + count);
        }
        if (closed) {
            throw new IllegalStateException("this PreparedReceive is closed");
        }
        if (sges.unreadyRequests() != 0) {
            sges.checkReady(count);
        }
        long handle = target.enter(); // held open during the call: a close on another thread waits for it
        try {
            int rc = postChain(handle, count);
            if (rc != 0) {
                throw failure(rc, count);
            }
        } finally {
            target.leave();
        }
    }

    private int postChain(long handle, int count) {
        long lastNext = (count - 1) * WR_SIZE + NEXT;
        if (count < length) {
            chain.set(JAVA_LONG, lastNext, 0L);
        }
        try {
            return ContextOps.postRecv(postFn, postAt, handle, chainAddress, badWrAddress);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        } finally {
            if (count < length) {
                chain.set(JAVA_LONG, lastNext, chainAddress + count * WR_SIZE);
            }
        }
    }

    private WorkRequestException failure(int rc, int count) {
        long bad = badWr.get(ADDRESS, 0).address() - chainAddress;
        int index = bad >= 0 && bad < count * WR_SIZE ? (int) (bad / WR_SIZE) : -1;
        long wrId = index >= 0 ? chain.get(JAVA_LONG, index * WR_SIZE + WR_ID) : -1;
        return new WorkRequestException(verb, Math.abs(rc), index, count, wrId);
    }

    private void checkWr(int wr) {
        sges.checkRequest(wr);
    }

    /**
     * Frees the native chain. Idempotent. Must not race with a post from another thread; a later post
     * throws {@link IllegalStateException}. Receives already posted stay posted.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
