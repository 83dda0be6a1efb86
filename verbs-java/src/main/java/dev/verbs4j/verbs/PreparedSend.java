package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_send_wr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A chain of send work requests ({@code ibv_send_wr} + {@code ibv_sge} arrays) laid out once in
 * its own native memory, from {@link QueuePair#prepareSend(int, int)}. Setters write straight into
 * that memory and {@link #post()} hands it to the provider's post_send: nothing is allocated per
 * post, so one object can be posted millions of times, changing only what varies (length, wr_id,
 * remote address...).
 *
 * <p>Requests are addressed by their index in the chain; the one-argument setters address
 * request 0 (and its first SGE), the common single-request case. Defaults: opcode SEND, no
 * flags, every SGE of a request in use.
 *
 * <p><b>Ownership.</b> The caller owns it and its native memory; close it before the QP. It
 * references, but does not own, the regions, memory and address handles its requests name: they
 * must stay open while requests naming them are posted.
 *
 * <p><b>Threads.</b> Not thread-safe: give each posting thread its own PreparedSend (several
 * threads may post to the same QP, each with its own), and close it on that thread. The provider
 * copies the requests during post, so they may be changed again as soon as post returns.
 *
 * <p><b>Errors.</b> Setters check their arguments at once and leave the request unchanged when
 * they throw; {@link #post(int)} checks only what may have changed since (closed objects, freed
 * memory), so the hot path stays a few field reads and the provider call.
 *
 * <p><b>Size.</b> One job, one native layout: a checked setter for every field of {@code ibv_send_wr}
 * that a caller may change (opcode, flags, SGEs, immediate, RDMA, atomic and UD parts). Split, the
 * offsets of one struct would be read in several files.
 */
public final class PreparedSend implements AutoCloseable {
    private static final long WR_SIZE = ibv_send_wr.sizeof();
    private static final long WR_ID = ibv_send_wr.wr_id$offset();
    private static final long NEXT = ibv_send_wr.next$offset();
    private static final long SG_LIST = ibv_send_wr.sg_list$offset();
    private static final long NUM_SGE = ibv_send_wr.num_sge$offset();
    private static final long OPCODE = ibv_send_wr.opcode$offset();
    private static final long SEND_FLAGS = ibv_send_wr.send_flags$offset();
    private static final long IMM_DATA = ibv_send_wr.imm_data$offset();
    private static final long UNION = ibv_send_wr.wr$offset();
    private static final long RDMA_REMOTE_ADDR = UNION + ibv_send_wr.wr.rdma$offset()
            + ibv_send_wr.wr.rdma.remote_addr$offset();
    private static final long RDMA_RKEY = UNION + ibv_send_wr.wr.rdma$offset() + ibv_send_wr.wr.rdma.rkey$offset();
    private static final long ATOMIC_REMOTE_ADDR = UNION + ibv_send_wr.wr.atomic$offset()
            + ibv_send_wr.wr.atomic.remote_addr$offset();
    private static final long ATOMIC_COMPARE_ADD = UNION + ibv_send_wr.wr.atomic$offset()
            + ibv_send_wr.wr.atomic.compare_add$offset();
    private static final long ATOMIC_SWAP = UNION + ibv_send_wr.wr.atomic$offset() + ibv_send_wr.wr.atomic.swap$offset();
    private static final long ATOMIC_RKEY = UNION + ibv_send_wr.wr.atomic$offset() + ibv_send_wr.wr.atomic.rkey$offset();
    private static final long UD_AH = UNION + ibv_send_wr.wr.ud$offset() + ibv_send_wr.wr.ud.ah$offset();
    private static final long UD_REMOTE_QPN = UNION + ibv_send_wr.wr.ud$offset() + ibv_send_wr.wr.ud.remote_qpn$offset();
    private static final long UD_REMOTE_QKEY = UNION + ibv_send_wr.wr.ud$offset()
            + ibv_send_wr.wr.ud.remote_qkey$offset();

    private final QueuePair qp;
    private final MemorySegment postSendFn;
    private final long postSendAt;
    private final Arena arena;
    private final MemorySegment chain;
    private final ScatterGatherTable sges;
    private final MemorySegment badWr;
    /** chain and badWr as the plain addresses post_send takes (see ContextOps) */
    private final long chainAddress;
    private final long badWrAddress;
    private final int length;
    /** Set by close; read on every post instead of the arena's scope (two interface calls under C1). */
    private volatile boolean closed;
    private final int maxInline;
    // Java copies of what validation and the opcode-dependent union layout need
    private final SendOpcode[] opcodes;
    private final int[] flags;
    private final long[] remoteAddress;
    private final int[] rkey;
    private final long[] compareAdd;
    private final long[] swap;
    private final AddressHandle[] addressHandles;
    /** Requests with INLINE set: a post checks their memory only while this is not 0. */
    private int inlineRequests;

    PreparedSend(QueuePair qp, int chainLength, int sgesPerRequest) {
        if (chainLength < 1) {
            throw new IllegalArgumentException("a chain needs at least one work request, got " + chainLength);
        }
        if (sgesPerRequest < 0 || sgesPerRequest > qp.capabilities().maxSendSge()) {
            throw new IllegalArgumentException("this QP allows " + qp.capabilities().maxSendSge()
                    + " SGEs per send (max_send_sge), asked for " + sgesPerRequest);
        }
        if (chainLength > qp.capabilities().maxSendWorkRequests()) {
            throw new IllegalArgumentException("a chain of " + chainLength + " cannot fit a send queue of "
                    + qp.capabilities().maxSendWorkRequests() + " (max_send_wr)");
        }
        this.qp = qp;
        this.postSendFn = qp.ops().postSend;
        this.postSendAt = postSendFn.address();
        this.length = chainLength;
        this.maxInline = qp.capabilities().maxInlineData();
        this.arena = Arena.ofShared();
        this.chain = arena.allocate(WR_SIZE * chainLength, 8);
        this.sges = new ScatterGatherTable(arena, chainLength, sgesPerRequest);
        this.badWr = arena.allocate(ADDRESS);
        this.chainAddress = chain.address();
        this.badWrAddress = badWr.address();
        this.opcodes = new SendOpcode[chainLength];
        this.flags = new int[chainLength];
        this.remoteAddress = new long[chainLength];
        this.rkey = new int[chainLength];
        this.compareAdd = new long[chainLength];
        this.swap = new long[chainLength];
        this.addressHandles = new AddressHandle[chainLength];
        for (int i = 0; i < chainLength; i++) {
            long wr = i * WR_SIZE;
            chain.set(ADDRESS, wr + NEXT, i + 1 < chainLength ? chain.asSlice(wr + WR_SIZE) : MemorySegment.NULL);
            chain.set(ADDRESS, wr + SG_LIST, sges.listOf(i));
            chain.set(JAVA_INT, wr + NUM_SGE, sgesPerRequest);
            opcodes[i] = SendOpcode.SEND;
            chain.set(JAVA_INT, wr + OPCODE, SendOpcode.SEND.value());
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
     * The QP this chain posts to.
     *
     * @return the QP (not owned by this object)
     */
    public QueuePair queuePair() {
        return qp;
    }

    // ---- per-request fields --------------------------------------------------------------

    /**
     * Sets the request's opcode; the default is {@link SendOpcode#SEND}.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param opcode the operation
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IllegalArgumentException if the QP's type does not allow it (e.g. RDMA on UD), or INLINE is
     *         set and the opcode cannot carry inline data
     * @throws UnsupportedOperationException for an atomic on a device without atomics
     */
    public PreparedSend opcode(int wr, SendOpcode opcode) {
        checkWr(wr);
        if (!opcode.allowedOn(qp.type())) {
            throw new IllegalArgumentException(opcode + " is not possible on a " + qp.type() + " QP");
        }
        if (opcode.isAtomic() && !qp.deviceAttributes().supportsAtomics()) {
            throw new UnsupportedOperationException("device " + qp.context().name()
                    + " does not support atomics (atomic_cap NONE)");
        }
        if ((flags[wr] & SendFlag.INLINE.bit()) != 0 && !inlineAllowed(opcode)) {
            throw new IllegalArgumentException("INLINE is set on work request " + wr + " and " + opcode
                    + " cannot carry inline data");
        }
        opcodes[wr] = opcode;
        chain.set(JAVA_INT, wr * WR_SIZE + OPCODE, opcode.value());
        writeRemote(wr);
        return this;
    }

    /**
     * Sets the request's send flags, a {@link SendFlag#mask} value (SIGNALED, INLINE, SOLICITED, FENCE...).
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param sendFlags the IBV_SEND_* bits; replaces the previous flags
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IllegalArgumentException if INLINE is asked for and the QP has no inline capacity, the
     *         opcode cannot carry inline data, or the request's data exceeds {@code max_inline_data}
     */
    public PreparedSend flags(int wr, int sendFlags) {
        checkWr(wr);
        if ((sendFlags & SendFlag.INLINE.bit()) != 0) {
            if (maxInline == 0) {
                throw new IllegalArgumentException("this QP has max_inline_data 0, so INLINE is not possible "
                        + "(ask for QpCapabilities.withInlineData; some devices, e.g. PVRDMA, support none)");
            }
            if (!inlineAllowed(opcodes[wr])) {
                throw new IllegalArgumentException(opcodes[wr] + " cannot carry inline data");
            }
        }
        int old = flags[wr];
        flags[wr] = sendFlags;
        try {
            checkInline(wr);
        } catch (IllegalArgumentException e) {
            flags[wr] = old;
            throw e;
        }
        chain.set(JAVA_INT, wr * WR_SIZE + SEND_FLAGS, sendFlags);
        inlineRequests += inline(sendFlags) - inline(old);
        sges.inline(wr, inline(sendFlags) != 0);
        return this;
    }

    /**
     * Sets the id that the request's completion will carry.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param wrId any value; the library does not interpret it
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     */
    public PreparedSend wrId(int wr, long wrId) {
        checkWr(wr);
        chain.set(JAVA_LONG, wr * WR_SIZE + WR_ID, wrId);
        return this;
    }

    /**
     * Immediate data as the receiver will read it from its completion (sent in network order); used by
     * the *_WITH_IMM opcodes.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param value the 32-bit value
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     */
    public PreparedSend immediate(int wr, int value) {
        checkWr(wr);
        chain.set(JAVA_INT, wr * WR_SIZE + IMM_DATA, Integer.reverseBytes(value));
        return this;
    }

    /**
     * Target of an RDMA read/write or atomic: the peer's address and the rkey of its region.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param address   the remote virtual address (8-byte aligned for atomics)
     * @param remoteKey the rkey of the peer's region holding it
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IllegalArgumentException on a UD QP, which has no remote memory access
     */
    public PreparedSend remote(int wr, long address, int remoteKey) {
        checkWr(wr);
        if (qp.type() == QpType.UD) {
            throw new IllegalArgumentException("UD QPs have no remote memory access; address sends with ud(...)");
        }
        remoteAddress[wr] = address;
        rkey[wr] = remoteKey;
        writeRemote(wr);
        return this;
    }

    /**
     * Compare value (CMP_AND_SWP) or addend (FETCH_AND_ADD).
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param value the 64-bit operand
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     */
    public PreparedSend compareAdd(int wr, long value) {
        checkWr(wr);
        compareAdd[wr] = value;
        writeRemote(wr);
        return this;
    }

    /**
     * Value swapped in by CMP_AND_SWP when the compare matches.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param value the 64-bit value to store
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     */
    public PreparedSend swap(int wr, long value) {
        checkWr(wr);
        swap[wr] = value;
        writeRemote(wr);
        return this;
    }

    /**
     * UD destination: an address handle, the peer QP number and its Q_Key. The handle must stay open
     * while the request is posted; a post throws {@link IllegalStateException} if it was closed.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param ah             the route to the peer (not owned by this object)
     * @param remoteQpNumber the peer's 24-bit QP number
     * @param qkey           the peer QP's Q_Key
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IllegalArgumentException if the QP is not UD
     */
    public PreparedSend ud(int wr, AddressHandle ah, int remoteQpNumber, int qkey) {
        checkWr(wr);
        if (qp.type() != QpType.UD) {
            throw new IllegalArgumentException("address handles address UD sends; this QP is " + qp.type());
        }
        long at = wr * WR_SIZE;
        chain.set(ADDRESS, at + UD_AH, ah.pointer());
        chain.set(JAVA_INT, at + UD_REMOTE_QPN, remoteQpNumber);
        chain.set(JAVA_INT, at + UD_REMOTE_QKEY, qkey);
        addressHandles[wr] = ah;
        return this;
    }

    /**
     * How many of the request's SGEs are used (0 for a zero-length send).
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param count 0 to the SGEs per request given at creation
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IllegalArgumentException if {@code count} is out of range, or the inline data would then
     *         exceed {@code max_inline_data}
     */
    public PreparedSend sgeCount(int wr, int count) {
        int old = sges.count(checkedWr(wr));
        sges.count(wr, count);
        try {
            checkInline(wr);
        } catch (IllegalArgumentException e) {
            sges.count(wr, old);
            throw e;
        }
        chain.set(JAVA_INT, wr * WR_SIZE + NUM_SGE, count);
        return this;
    }

    /**
     * One scatter/gather entry: {@code length} bytes at {@code offset} in {@code mr}.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param sge    index of the entry within the request, from 0
     * @param mr     the registered region holding the data; it must stay open while posted
     * @param offset byte offset in the region
     * @param length bytes to send or to receive into
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IndexOutOfBoundsException if {@code sge} is out of range or the bytes lie outside the region
     * @throws IllegalStateException if {@code mr} is closed
     * @throws IllegalArgumentException if the inline data would exceed {@code max_inline_data}
     */
    public PreparedSend sge(int wr, int sge, MemoryRegion mr, long offset, int length) {
        sges.set(wr, sge, mr.memory(), ScatterGatherTable.addressIn(mr, offset, length), length, mr.lkey());
        checkInline(wr);
        return this;
    }

    /**
     * One scatter/gather entry by address: {@code length} bytes at {@code address}, which must lie
     * in the open region of this QP's protection domain whose lkey is {@code lkey}.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param sge     index of the entry within the request, from 0
     * @param address virtual address of the first byte
     * @param length  bytes to send
     * @param lkey    the lkey of the region holding them
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IllegalArgumentException if no open region of the PD has this lkey, or the inline data
     *         would exceed {@code max_inline_data}
     * @throws IndexOutOfBoundsException if {@code sge} is out of range or the bytes lie outside that region
     */
    public PreparedSend sge(int wr, int sge, long address, int length, int lkey) {
        MemoryRegion mr = qp.protectionDomain().regionHolding(lkey, address, length);
        sges.set(wr, sge, mr.memory(), address, length, lkey);
        checkInline(wr);
        return this;
    }

    /**
     * Inline data for one scatter/gather entry: all of {@code data}, any live native segment, no
     * registered region needed. The request must be sent with {@link SendFlag#INLINE}; a post
     * refuses it otherwise. The provider copies the bytes during the post, so the segment's arena
     * must be open only until post returns.
     *
     * @param wr     index of the request in the chain, 0 to {@link #size()} minus 1
     * @param sge  index of the entry within the request, from 0
     * @param data native memory to copy into the request at post time
     * @return this, for chaining
     * @throws IndexOutOfBoundsException if {@code wr} is not a request of the chain
     * @throws IllegalArgumentException if {@code data} is a heap segment, longer than 2^31-1 bytes, or
     *         makes the inline data exceed {@code max_inline_data}
     */
    public PreparedSend sge(int wr, int sge, MemorySegment data) {
        sges.setUnregistered(wr, sge, data);
        checkInline(wr);
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
     * @throws IllegalArgumentException if the inline data would exceed {@code max_inline_data}
     */
    public PreparedSend length(int wr, int sge, int length) {
        sges.length(wr, sge, length);
        if (inlineRequests != 0) {
            checkInline(wr);
        }
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
    public PreparedSend address(int wr, int sge, long address) {
        sges.address(wr, sge, address);
        return this;
    }

    // ---- shortcuts for request 0 ---------------------------------------------------------

    /**
     * {@link #wrId(int, long)} for request 0.
     *
     * @param wrId any value; the completion carries it
     * @return this, for chaining
     */
    public PreparedSend wrId(long wrId) {
        return wrId(0, wrId);
    }

    /**
     * {@link #length(int, int, int)} for the first SGE of request 0.
     *
     * @param length the new byte count; it must stay inside the entry's memory
     * @return this, for chaining
     * @throws IllegalStateException if the entry was never filled
     * @throws IndexOutOfBoundsException if the bytes would lie outside the entry's memory
     */
    public PreparedSend length(int length) {
        return length(0, 0, length);
    }

    /**
     * {@link #remote(int, long, int)} for request 0.
     *
     * @param address   the remote virtual address
     * @param remoteKey the rkey of the peer's region holding it
     * @return this, for chaining
     * @throws IllegalArgumentException on a UD QP
     */
    public PreparedSend remote(long address, int remoteKey) {
        return remote(0, address, remoteKey);
    }

    /**
     * {@link #immediate(int, int)} for request 0.
     *
     * @param value the 32-bit value the receiver reads from its completion
     * @return this, for chaining
     */
    public PreparedSend immediate(int value) {
        return immediate(0, value);
    }

    // ---- posting -------------------------------------------------------------------------

    /**
     * Posts the whole chain ({@code ibv_post_send}); see {@link #post(int)}.
     *
     * @throws IllegalStateException if this object, the QP, a region or an address handle is closed,
     *         or an SGE was never filled
     * @throws WorkRequestException if the provider rejects a request (queue full, wrong QP state...)
     */
    public void post() {
        post(length);
    }

    /**
     * Posts the first {@code count} requests of the chain ({@code ibv_post_send}). The QP (and for UD
     * each request's address handle) is held open for the duration of the call: a close on another
     * thread waits for it, and a post after that close throws. Allocates nothing once every request
     * is filled.
     *
     * @param count how many requests to post, 1 to {@link #size()}
     * @throws IllegalArgumentException if {@code count} is out of range
     * @throws IllegalStateException if this object, the QP, a region or an address handle is closed,
     *         the memory of an SGE was freed, an SGE was never filled, or a UD request has no destination
     * @throws WorkRequestException if the provider rejects a request: those before
     *         {@link WorkRequestException#index()} were posted and will complete
     */
    public void post(int count) {
        if (count < 1 || count > length) {
            throw new IllegalArgumentException("can post 1.." + length + " requests of this chain, asked for " + count);
        }
        if (closed) {
            throw new IllegalStateException("this PreparedSend is closed");
        }
        // null on the hot path: every request filled, none inline
        MemorySegment keepAlive = inlineRequests != 0 || sges.unreadyRequests() != 0 ? checkMemory(count) : null;
        long qpHandle = qp.enter();
        int heldHandles = 0;
        try {
            if (qp.type() == QpType.UD) {
                heldHandles = enterAddressHandles(count);
            }
            int rc = postChain(qpHandle, count, keepAlive);
            if (rc != 0) {
                throw failure(rc, count);
            }
        } finally {
            leaveAddressHandles(heldHandles);
            qp.leave();
        }
    }

    private int postChain(long qpHandle, int count, MemorySegment keepAlive) {
        long lastNext = (count - 1) * WR_SIZE + NEXT;
        if (count < length) {
            chain.set(JAVA_LONG, lastNext, 0L);
        }
        try {
            return keepAlive == null
                    ? ContextOps.postSend(postSendFn, postSendAt, qpHandle, chainAddress, badWrAddress)
                    : ContextOps.postSendKeepingAlive(postSendFn, qpHandle, chainAddress, badWrAddress, keepAlive);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        } finally {
            if (count < length) {
                chain.set(JAVA_LONG, lastNext, chainAddress + count * WR_SIZE);
            }
        }
    }

    /**
     * Refuses a post that uses an entry never filled, or whose inline data lies in freed memory
     * (the CPU copies inline data during the post: the device's lkey check never sees it).
     * Returns the segment whose scope the post keeps acquired, so the inline memory cannot be
     * freed by another thread while the provider copies it; null when no request is inline.
     */
    private MemorySegment checkMemory(int count) {
        sges.checkReady(count);
        MemorySegment keep = null;
        for (int i = 0; i < count; i++) {
            if (inline(flags[i]) != 0) {
                keep = sges.checkAlive(i, keep);
            }
        }
        // memory of an arena confined to another thread cannot be acquired here (nor closed but by its owner)
        return keep == null || keep.isAccessibleBy(Thread.currentThread()) ? keep : null;
    }

    private WorkRequestException failure(int rc, int count) {
        long bad = badWr.get(ADDRESS, 0).address() - chainAddress;
        int index = bad >= 0 && bad < count * WR_SIZE ? (int) (bad / WR_SIZE) : -1;
        long wrId = index >= 0 ? chain.get(JAVA_LONG, index * WR_SIZE + WR_ID) : -1;
        return new WorkRequestException("ibv_post_send", Math.abs(rc), index, count, wrId);
    }

    /** Holds the first {@code count} requests' address handles open (the provider reads them); returns how many. */
    private int enterAddressHandles(int count) {
        for (int i = 0; i < count; i++) {
            AddressHandle ah = addressHandles[i];
            try {
                if (ah == null) {
                    throw new IllegalStateException("UD work request " + i + " has no destination; call ud(...)");
                }
                ah.enter(); // throws if the address handle was closed: the provider would read freed memory
            } catch (RuntimeException e) {
                leaveAddressHandles(i);
                throw e;
            }
        }
        return count;
    }

    private void leaveAddressHandles(int count) {
        for (int i = 0; i < count; i++) {
            addressHandles[i].leave();
        }
    }

    // ---- helpers -------------------------------------------------------------------------

    private static int inline(int sendFlags) {
        return (sendFlags & SendFlag.INLINE.bit()) != 0 ? 1 : 0;
    }

    private static boolean inlineAllowed(SendOpcode opcode) {
        return opcode != SendOpcode.RDMA_READ && !opcode.isAtomic();
    }

    /** The union holds rdma or atomic fields at overlapping offsets: write the set the opcode reads. */
    private void writeRemote(int wr) {
        long at = wr * WR_SIZE;
        if (qp.type() == QpType.UD) {
            return;
        }
        if (opcodes[wr].isAtomic()) {
            chain.set(JAVA_LONG, at + ATOMIC_REMOTE_ADDR, remoteAddress[wr]);
            chain.set(JAVA_LONG, at + ATOMIC_COMPARE_ADD, compareAdd[wr]);
            chain.set(JAVA_LONG, at + ATOMIC_SWAP, swap[wr]);
            chain.set(JAVA_INT, at + ATOMIC_RKEY, rkey[wr]);
        } else {
            chain.set(JAVA_LONG, at + RDMA_REMOTE_ADDR, remoteAddress[wr]);
            chain.set(JAVA_INT, at + RDMA_RKEY, rkey[wr]);
        }
    }

    private void checkInline(int wr) {
        if ((flags[wr] & SendFlag.INLINE.bit()) == 0) {
            return;
        }
        long total = sges.bytes(wr);
        if (total > maxInline) {
            throw new IllegalArgumentException("work request " + wr + " carries " + total
                    + " bytes inline but this QP allows " + maxInline + " (max_inline_data)");
        }
    }

    private void checkWr(int wr) {
        sges.checkRequest(wr);
    }

    private int checkedWr(int wr) {
        sges.checkRequest(wr);
        return wr;
    }

    /**
     * Frees the native chain. Idempotent. Must not race with a post from another thread; a later post
     * throws {@link IllegalStateException}. Requests already posted are unaffected.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
