package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_pd;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Set;

/**
 * {@code struct ibv_pd}: the scope in which MRs, QPs, SRQs and AHs may be used together, from
 * {@link Context#allocateProtectionDomain()}.
 *
 * <p><b>Ownership.</b> The caller owns it. Close it after every region, queue pair, SRQ and address
 * handle created in it (close refuses with {@link IllegalStateException} while any is open) and
 * before its {@link Context}.
 *
 * <p><b>Threads.</b> Safe to share. Creating objects in it holds its monitor, which close holds too:
 * a close racing with a creation waits for it, then refuses while the new object is open (see
 * {@code NativeObject}). Every method throws {@link IllegalStateException} once it is closed.
 */
public final class ProtectionDomain extends NativeObject {
    private static final MethodHandle ALLOC_PD = NativeLibraries.verbs("ibv_alloc_pd", Rdma.ibv_alloc_pd$descriptor());
    private static final MethodHandle DEALLOC_PD =
            NativeLibraries.verbs("ibv_dealloc_pd", Rdma.ibv_dealloc_pd$descriptor());

    private final Context context;
    /** Open regions by lkey: a work request given a raw address is checked against the region its lkey names. */
    private final RegionsByKey<MemoryRegion> regions = new RegionsByKey<>();

    ProtectionDomain(Context context) {
        super("protection domain", alloc(context), context);
        this.context = context;
    }

    private static MemorySegment alloc(Context context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment pd;
            synchronized (context) { // its close waits: the parent stays valid during the call
                pd = (MemorySegment) ALLOC_PD.invokeExact(errno, context.pointer());
            }
            return Calls.checkPointer(pd, errno, "ibv_alloc_pd", "cannot allocate a protection domain on "
                    + context.name()).reinterpret(ibv_pd.sizeof());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * The device this PD was allocated on.
     *
     * @return its context (owned by whoever opened it, not by this PD)
     */
    public Context context() {
        return context;
    }

    /**
     * Registers native memory for RDMA ({@code ibv_reg_mr}). Heap segments are refused: the device
     * reads and writes the memory after the call returns, and the GC moves heap arrays.
     *
     * @param memory the native memory to register; its arena must stay open until the region is closed
     *               (the region does not own or close it)
     * @param access what the device may do with it; {@link Access#LOCAL_WRITE} is needed for receives
     *               and for the targets of RDMA reads and atomics
     * @return the new region, owned by the caller, who closes it before this PD and before closing
     *         the memory's arena
     * @throws IllegalArgumentException if {@code memory} is a heap segment, empty, or larger than the
     *         device's {@code max_mr_size}
     * @throws IllegalStateException if this PD is closed
     * @throws MemoryLockLimitException if registration fails with ENOMEM (RLIMIT_MEMLOCK too small)
     * @throws RdmaCgroupLimitException if it fails with EAGAIN under an rdma cgroup limit
     * @throws VerbsException if the verb fails otherwise
     */
    public MemoryRegion register(MemorySegment memory, Set<Access> access) {
        return new MemoryRegion(this, memory, Access.mask(access));
    }

    /**
     * Creates a queue pair ({@code ibv_create_qp}) in RESET state; connect it with toInit/toRtr/toRts,
     * or use {@link #queuePairBuilder(QpType, CompletionQueue)} for the staged way.
     *
     * @param attributes its type, CQs, optional SRQ and queue sizes
     * @return the new QP, owned by the caller, who closes it before this PD and before its CQs and SRQ
     * @throws IllegalArgumentException if a size exceeds the device's limits
     * @throws IllegalStateException if this PD, a CQ or the SRQ is closed
     * @throws VerbsException if the verb fails (ENOMEM gives a {@link MemoryLockLimitException}, EAGAIN
     *                         under an rdma cgroup limit a {@link RdmaCgroupLimitException})
     */
    public QueuePair createQueuePair(QpInitAttributes attributes) {
        return QueuePair.create(this, attributes);
    }

    /**
     * Starts a queue pair the staged way: set what differs from the defaults, {@code build()} it,
     * send its endpoint to the peer and {@code connect} it with the peer's. The QP created by
     * {@code build()} belongs to this PD and must be closed before it.
     *
     * <pre>{@code
     * try (PreparedQueuePair prepared = pd.queuePairBuilder(QpType.RC, cq).remoteAccess(Access.ALL_REMOTE).build()) {
     *     QueuePairEndpoint peer = EndpointExchange.connect(host, port, prepared.endpoint(), timeout);
     *     try (QueuePair qp = prepared.connect(peer)) { ... }
     * }
     * }</pre>
     *
     * @param type RC, UC or UD
     * @param cq   the CQ sends and receives complete into (not closed by the QP)
     * @return a new builder (a plain Java object: nothing native until {@code build()})
     */
    public QueuePairBuilder queuePairBuilder(QpType type, CompletionQueue cq) {
        return new QueuePairBuilder(this, type, cq);
    }

    /**
     * Creates a shared receive queue ({@code ibv_create_srq}) that QPs of this PD can receive from.
     *
     * @param maxWorkRequests receives it can hold at once, 1 to the device's {@code max_srq_wr}
     * @param maxSge          scatter entries per receive, 1 to the device's {@code max_srq_sge}
     * @return the new SRQ, owned by the caller, who closes it after the QPs that use it and before
     *         this PD
     * @throws IllegalArgumentException if a size is outside the device's limits
     * @throws IllegalStateException if this PD is closed
     * @throws VerbsException if the verb fails (EOPNOTSUPP when the device has no SRQs)
     */
    public SharedReceiveQueue createSharedReceiveQueue(int maxWorkRequests, int maxSge) {
        return SharedReceiveQueue.create(this, maxWorkRequests, maxSge);
    }

    /**
     * Creates an address handle ({@code ibv_create_ah}) for UD sends to {@code address}.
     *
     * @param address the destination: LID or GID, port, service level
     * @return the new AH, owned by the caller, who closes it (after the sends using it completed)
     *         before this PD
     * @throws IllegalStateException if this PD is closed
     * @throws VerbsException if the verb fails (e.g. EINVAL for a bad GID index)
     */
    public AddressHandle createAddressHandle(AddressVector address) {
        return AddressHandle.create(this, address);
    }

    /**
     * An address handle back to the sender of received UD datagram {@code index} in
     * {@code completions} ({@code ibv_create_ah_from_wc}); {@code grh} is the first 40 bytes of its
     * receive buffer.
     *
     * @param completions the batch the receive completion was polled into
     * @param index       which completion of the batch, 0 to {@link WorkCompletions#count()} minus 1
     * @param grh         the 40-byte global routing header at the start of the receive buffer
     * @param port        the local port the datagram arrived on, from 1
     * @return the new AH, owned by the caller, who closes it before this PD
     * @throws IndexOutOfBoundsException if {@code index} is not a completion of the last poll
     * @throws IllegalArgumentException if {@code grh} is not native memory of at least 40 bytes
     * @throws IllegalStateException if this PD is closed
     * @throws VerbsException if the verb fails
     */
    public AddressHandle createAddressHandle(WorkCompletions completions, int index, MemorySegment grh, int port) {
        return AddressHandle.replyTo(this, completions, index, grh, port);
    }

    /**
     * The open region of this PD whose lkey is {@code lkey}, holding {@code length} bytes at
     * {@code address}; throws when there is none (the device would fail the request, or for
     * inline data the CPU would read memory nobody vouched for).
     */
    MemoryRegion regionHolding(int lkey, long address, int length) {
        MemoryRegion mr = regions.get(lkey);
        if (mr == null) {
            throw new IllegalArgumentException("lkey 0x" + Integer.toHexString(lkey)
                    + " names no open memory region of this protection domain");
        }
        long offset = address - mr.address();
        ScatterGatherTable.addressIn(mr, offset, length);
        return mr;
    }

    void registered(MemoryRegion mr) {
        regions.put(mr.lkey(), mr);
    }

    void deregistered(MemoryRegion mr, int lkey) {
        regions.remove(lkey, mr);
    }

    MemorySegment pointer() {
        return handle();
    }

    @Override
    void destroy(MemorySegment pd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) DEALLOC_PD.invokeExact(errno, pd);
            Calls.checkStatus(rc, errno, "ibv_dealloc_pd", "cannot free the protection domain");
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }
}
