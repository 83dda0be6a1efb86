package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_srq;
import dev.verbs4j.bindings.ibv_srq_attr;
import dev.verbs4j.bindings.ibv_srq_init_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@code struct ibv_srq}: one pool of receive buffers shared by many QPs, so receive memory grows
 * with traffic rather than with the number of connections, from
 * {@link ProtectionDomain#createSharedReceiveQueue(int, int)}. Arm a {@link #armLimit(int) limit}
 * to get an async event when it runs low.
 *
 * <p><b>Ownership.</b> The caller owns it; QPs that receive from it do not. Close those QPs (and its
 * prepared receives) first, then the SRQ, then its {@link ProtectionDomain}.
 *
 * <p><b>Threads.</b> Closing it while other threads post receives to it is safe: posts hold it open
 * for their call (see {@code NativeObject}); arming and querying hold its monitor, which close holds
 * too. Each posting thread uses its own {@link PreparedReceive}.
 */
public final class SharedReceiveQueue extends NativeObject {
    private static final MethodHandle CREATE_SRQ =
            NativeLibraries.verbs("ibv_create_srq", Rdma.ibv_create_srq$descriptor());
    private static final MethodHandle DESTROY_SRQ =
            NativeLibraries.verbs("ibv_destroy_srq", Rdma.ibv_destroy_srq$descriptor());
    private static final MethodHandle MODIFY_SRQ =
            NativeLibraries.verbs("ibv_modify_srq", Rdma.ibv_modify_srq$descriptor());
    private static final MethodHandle QUERY_SRQ = NativeLibraries.verbs("ibv_query_srq", Rdma.ibv_query_srq$descriptor());
    /** enum ibv_srq_attr_mask */
    private static final int SRQ_LIMIT = 2;

    private final ProtectionDomain pd;
    private final ContextOps ops;
    private final int maxWorkRequests;
    private final int maxSge;

    private SharedReceiveQueue(ProtectionDomain pd, MemorySegment srq, int maxWorkRequests, int maxSge) {
        super("shared receive queue", srq, pd);
        this.pd = pd;
        this.ops = pd.context().ops();
        this.maxWorkRequests = maxWorkRequests;
        this.maxSge = maxSge;
    }

    static SharedReceiveQueue create(ProtectionDomain pd, int maxWorkRequests, int maxSge) {
        DeviceAttributes device = pd.context().queryDevice();
        if (!device.supportsSrq()) {
            throw new UnsupportedOperationException("device " + pd.context().name() + " has no shared receive queues (max_srq 0)");
        }
        if (maxWorkRequests < 1 || maxWorkRequests > device.maxSrqWr()) {
            throw new IllegalArgumentException("an SRQ holds 1.." + device.maxSrqWr() + " receives on this device "
                    + "(max_srq_wr), asked for " + maxWorkRequests);
        }
        if (maxSge < 1 || maxSge > device.maxSrqSge()) {
            throw new IllegalArgumentException("an SRQ takes 1.." + device.maxSrqSge() + " SGEs per receive on this device "
                    + "(max_srq_sge), asked for " + maxSge);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment init = arena.allocate(ibv_srq_init_attr.layout());
            MemorySegment attr = ibv_srq_init_attr.attr(init);
            ibv_srq_attr.max_wr(attr, maxWorkRequests);
            ibv_srq_attr.max_sge(attr, maxSge);
            MemorySegment srq;
            synchronized (pd) { // its close waits: the parent stays valid during the call
                srq = (MemorySegment) CREATE_SRQ.invokeExact(errno, pd.pointer(), init);
            }
            Calls.checkPointer(srq, errno, "ibv_create_srq", "cannot create an SRQ of " + maxWorkRequests + " receives");
            return new SharedReceiveQueue(pd, srq.reinterpret(ibv_srq.sizeof()), ibv_srq_attr.max_wr(attr),
                    ibv_srq_attr.max_sge(attr));
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * The PD it was created in; QPs using it must belong to the same PD.
     *
     * @return the PD (not owned by the SRQ)
     */
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    /**
     * Receives the SRQ holds, as the provider allocated it.
     *
     * @return the capacity, at least what was asked for
     */
    public int maxWorkRequests() {
        return maxWorkRequests;
    }

    /**
     * Scatter/gather entries per receive, as the provider allocated it.
     *
     * @return the SGE limit
     */
    public int maxSge() {
        return maxSge;
    }

    /**
     * Arms the limit ({@code ibv_modify_srq}): once fewer than {@code limit} receives remain, the
     * device raises one SRQ_LIMIT_REACHED async event and disarms. Re-arm after refilling.
     *
     * @param limit 0 to {@link #maxWorkRequests()}; 0 disarms
     * @throws IllegalArgumentException if {@code limit} is out of range
     * @throws IllegalStateException if the SRQ is closed
     * @throws VerbsException if the provider refuses (some have no SRQ limit)
     */
    public synchronized void armLimit(int limit) {
        if (limit < 0 || limit > maxWorkRequests) {
            throw new IllegalArgumentException("SRQ limit must be in 0.." + maxWorkRequests + ", got " + limit);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment attr = arena.allocate(ibv_srq_attr.layout());
            ibv_srq_attr.srq_limit(attr, limit);
            int rc = (int) MODIFY_SRQ.invokeExact(errno, handle(), attr, SRQ_LIMIT);
            Calls.checkStatus(rc, errno, "ibv_modify_srq", "cannot arm the SRQ limit at " + limit);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * {@code ibv_query_srq}: its size and current limit.
     *
     * @return a snapshot of the attributes
     * @throws IllegalStateException if the SRQ is closed
     * @throws VerbsException if the query fails
     */
    public synchronized SrqAttributes query() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment attr = arena.allocate(ibv_srq_attr.layout());
            int rc = (int) QUERY_SRQ.invokeExact(errno, handle(), attr);
            Calls.checkStatus(rc, errno, "ibv_query_srq", "cannot query the SRQ");
            return new SrqAttributes(ibv_srq_attr.max_wr(attr), ibv_srq_attr.max_sge(attr), ibv_srq_attr.srq_limit(attr));
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * A chain of receives to post to this SRQ (ibv_post_srq_recv), without allocating per post. For
     * one thread at a time.
     *
     * @param chainLength    requests in the chain, 1 to {@link #maxWorkRequests()}
     * @param sgesPerRequest SGEs per request, 0 to {@link #maxSge()}
     * @return the chain, owned by the caller, who closes it before this SRQ
     * @throws IllegalArgumentException if a count is out of range
     * @throws IllegalStateException if the SRQ is closed
     * @throws UnsupportedOperationException if the provider has no post_srq_recv
     */
    public PreparedReceive prepareReceive(int chainLength, int sgesPerRequest) {
        handle();
        if (sgesPerRequest > maxSge) {
            throw new IllegalArgumentException("this SRQ allows " + maxSge + " SGEs per receive, asked for " + sgesPerRequest);
        }
        return new PreparedReceive(this, pd, ops.postSrqRecv, "ibv_post_srq_recv", chainLength, sgesPerRequest,
                maxWorkRequests, maxSge, "the SRQ's max_wr");
    }

    MemorySegment pointer() {
        return handle();
    }

    @Override
    void destroy(MemorySegment srq) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) DESTROY_SRQ.invokeExact(errno, srq);
            Calls.checkStatus(rc, errno, "ibv_destroy_srq", "cannot destroy the SRQ");
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }
}
