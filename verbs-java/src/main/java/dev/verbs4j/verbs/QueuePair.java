package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_qp;
import dev.verbs4j.bindings.ibv_qp_attr;
import dev.verbs4j.bindings.ibv_qp_cap;
import dev.verbs4j.bindings.ibv_qp_init_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code struct ibv_qp}: a send queue and a receive queue (or an SRQ) with a typed state machine,
 * from {@link ProtectionDomain#createQueuePair} or {@link PreparedQueuePair}.
 * Connect two RC QPs with {@link #toInit}, {@link #toRtr} and {@link #toRts}; each checks the
 * current state and the attributes the QP type needs before ibv_modify_qp runs.
 *
 * <p>Work requests are posted through {@link PreparedSend} and {@link PreparedReceive}, built
 * once and posted many times without allocating. Posting is thread-safe at the provider level;
 * each thread uses its own prepared objects.
 *
 * <p><b>Ownership.</b> The caller owns the QP. It uses, but does not own, its PD, CQs and SRQ:
 * close the QP (after its prepared work requests) before any of them. Closing it destroys the
 * queues; work requests still outstanding are lost without completions, so drain first (or move
 * to ERR and poll the flushed completions) when they matter.
 *
 * <p><b>Threads.</b> Closing a QP while other threads post to it is safe: each post holds the QP
 * open for its call (one atomic add before and after, see {@code NativeObject}), the close waits
 * for posts in progress, and later posts throw {@link IllegalStateException}. State changes and
 * queries hold the QP's monitor, which close holds too.
 */
public final class QueuePair extends NativeObject {
    private static final MethodHandle CREATE_QP = NativeLibraries.verbs("ibv_create_qp", Rdma.ibv_create_qp$descriptor());
    private static final MethodHandle DESTROY_QP =
            NativeLibraries.verbs("ibv_destroy_qp", Rdma.ibv_destroy_qp$descriptor());
    private static final MethodHandle MODIFY_QP = NativeLibraries.verbs("ibv_modify_qp", Rdma.ibv_modify_qp$descriptor());
    private static final MethodHandle QUERY_QP = NativeLibraries.verbs("ibv_query_qp", Rdma.ibv_query_qp$descriptor());

    private static final int QUERY_ALL = QpAttrMask.STATE | QpAttrMask.PATH_MTU | QpAttrMask.QKEY
            | QpAttrMask.RQ_PSN | QpAttrMask.SQ_PSN | QpAttrMask.DEST_QPN | QpAttrMask.ACCESS_FLAGS
            | QpAttrMask.CAP | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.TIMEOUT
            | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC
            | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER | QpAttrMask.AV;

    /**
     * How the native QP is released. The default is ibv_destroy_qp; a QP created by
     * rdma_create_qp passes one that calls rdma_destroy_qp on its cm_id.
     */
    interface Destroyer {
        void destroy(MemorySegment qp);
    }

    private final ProtectionDomain pd;
    private final Context context;
    private final QpType type;
    private final int qpNumber;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final SharedReceiveQueue srq;
    private final QpCapabilities capabilities;
    private final DeviceAttributes device;
    private final Destroyer destroyer;
    private final List<Dependency> dependencies = new ArrayList<>();

    /**
     * Wraps an existing native QP. {@code capabilities} may be null (then they are queried);
     * {@code destroyer} null means ibv_destroy_qp.
     */
    QueuePair(ProtectionDomain pd, MemorySegment qp, QpType type, CompletionQueue sendCq, CompletionQueue recvCq,
              SharedReceiveQueue srq, QpCapabilities capabilities, Destroyer destroyer) {
        super("queue pair", qp.reinterpret(ibv_qp.sizeof()), pd);
        this.pd = pd;
        this.context = pd.context();
        this.type = type;
        this.qpNumber = ibv_qp.qp_num(handle());
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.destroyer = destroyer;
        this.device = context.queryDevice();
        this.capabilities = capabilities != null ? capabilities : query().capabilities();
        dependencies.add(new Dependency("queue pair 0x" + Integer.toHexString(qpNumber), sendCq));
        if (recvCq != sendCq) {
            dependencies.add(new Dependency("queue pair 0x" + Integer.toHexString(qpNumber), recvCq));
        }
        if (srq != null) {
            dependencies.add(new Dependency("queue pair 0x" + Integer.toHexString(qpNumber), srq));
        }
    }

    static QueuePair create(ProtectionDomain pd, QpInitAttributes init) {
        DeviceAttributes device = pd.context().queryDevice();
        checkCapabilities(init, device);
        // the PD's monitor and the CQs' and SRQ's use counts keep all four valid during the call
        synchronized (pd) {
            init.sendCq.enter();
            try {
                init.recvCq.enter();
                try {
                    return createHeld(pd, init);
                } finally {
                    init.recvCq.leave();
                }
            } finally {
                init.sendCq.leave();
            }
        }
    }

    private static QueuePair createHeld(ProtectionDomain pd, QpInitAttributes init) {
        if (init.srq != null) {
            init.srq.enter();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment attr = arena.allocate(ibv_qp_init_attr.layout());
            ibv_qp_init_attr.send_cq(attr, init.sendCq.pointer());
            ibv_qp_init_attr.recv_cq(attr, init.recvCq.pointer());
            ibv_qp_init_attr.srq(attr, init.srq == null ? MemorySegment.NULL : init.srq.pointer());
            ibv_qp_init_attr.qp_type(attr, init.type.value());
            ibv_qp_init_attr.sq_sig_all(attr, init.signalAll ? 1 : 0);
            MemorySegment cap = ibv_qp_init_attr.cap(attr);
            QpCapabilities c = init.capabilities;
            ibv_qp_cap.max_send_wr(cap, c.maxSendWorkRequests());
            ibv_qp_cap.max_recv_wr(cap, init.srq == null ? c.maxRecvWorkRequests() : 0);
            ibv_qp_cap.max_send_sge(cap, c.maxSendSge());
            ibv_qp_cap.max_recv_sge(cap, init.srq == null ? c.maxRecvSge() : 0);
            ibv_qp_cap.max_inline_data(cap, c.maxInlineData());
            MemorySegment qp = (MemorySegment) CREATE_QP.invokeExact(errno, pd.pointer(), attr);
            Calls.checkPointer(qp, errno, "ibv_create_qp", "cannot create a " + init.type + " QP with " + c);
            // the provider writes back what it really allocated (often more than asked for)
            return new QueuePair(pd, qp, init.type, init.sendCq, init.recvCq, init.srq, readCapabilities(cap), null);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        } finally {
            if (init.srq != null) {
                init.srq.leave();
            }
        }
    }

    private static void checkCapabilities(QpInitAttributes init, DeviceAttributes device) {
        QpCapabilities c = init.capabilities;
        if (c.maxSendWorkRequests() > device.maxQpWr() || c.maxRecvWorkRequests() > device.maxQpWr()) {
            throw new IllegalArgumentException("the device allows at most " + device.maxQpWr()
                    + " work requests per queue (max_qp_wr), asked for " + c);
        }
        if (c.maxSendSge() > device.maxSge() || c.maxRecvSge() > device.maxSge()) {
            throw new IllegalArgumentException("the device allows at most " + device.maxSge()
                    + " scatter/gather entries per work request (max_sge), asked for " + c);
        }
        if (init.type == QpType.UD && init.srq == null && c.maxRecvWorkRequests() == 0) {
            throw new IllegalArgumentException("a UD QP without an SRQ needs maxRecvWorkRequests > 0 to receive");
        }
    }

    static QpCapabilities readCapabilities(MemorySegment cap) {
        return new QpCapabilities(ibv_qp_cap.max_send_wr(cap), ibv_qp_cap.max_recv_wr(cap),
                ibv_qp_cap.max_send_sge(cap), ibv_qp_cap.max_recv_sge(cap), ibv_qp_cap.max_inline_data(cap));
    }

    /**
     * The transport type, fixed at creation.
     *
     * @return RC, UC or UD
     */
    public QpType type() {
        return type;
    }

    /**
     * The QP number a peer sends to (24 bits).
     *
     * @return the QP number, fixed at creation
     */
    public int number() {
        return qpNumber;
    }

    /**
     * The PD the QP was created in.
     *
     * @return the PD (not owned by the QP)
     */
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    /**
     * The CQ that send work requests complete into.
     *
     * @return the send CQ (not owned by the QP)
     */
    public CompletionQueue sendCompletionQueue() {
        return sendCq;
    }

    /**
     * The CQ that receive work requests complete into.
     *
     * @return the receive CQ (not owned by the QP); may be the same as the send CQ
     */
    public CompletionQueue receiveCompletionQueue() {
        return recvCq;
    }

    /**
     * The SRQ this QP receives from.
     *
     * @return the SRQ (not owned by the QP), or null when the QP has its own receive queue
     */
    public SharedReceiveQueue sharedReceiveQueue() {
        return srq;
    }

    /**
     * What the provider allocated (at least what was asked for); prepared work requests are checked
     * against it.
     *
     * @return the queue sizes, SGE counts and inline limit, fixed at creation
     */
    public QpCapabilities capabilities() {
        return capabilities;
    }

    /**
     * The current state, queried from the device (it moves to ERR on its own after fatal errors).
     *
     * @return the state now
     * @throws IllegalStateException if the QP is closed
     * @throws VerbsException if the query fails
     */
    public QpState state() {
        return query().state();
    }

    // ---- state machine ------------------------------------------------------------------

    /**
     * RESET → INIT: sets the port, P_Key index and (RC/UC) remote access flags or (UD) Q_Key.
     * Receives may be posted from INIT on.
     *
     * @param attributes the INIT attributes for this QP's type
     * @throws QpStateException if the QP is not in RESET
     * @throws IllegalArgumentException if an attribute is missing or not allowed for the QP's type
     * @throws IllegalStateException if the QP is closed
     * @throws VerbsException if ibv_modify_qp fails (the message names the attribute mask)
     */
    public synchronized void toInit(InitAttributes attributes) {
        QpState from = checkedFrom(QpState.INIT);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            modify(arena, from, QpState.INIT, attr, QpTransitions.init(type, attributes, attr));
        }
    }

    /**
     * INIT → RTR: after this the QP receives. RC and UC take the peer's address, QP number and PSN;
     * UD takes nothing.
     *
     * @param attributes the RTR attributes for this QP's type
     * @throws QpStateException if the QP is not in INIT
     * @throws IllegalArgumentException if an attribute is missing, not allowed for the QP's type, or
     *         above the device's limits (max_qp_rd_atom)
     * @throws IllegalStateException if the QP is closed
     * @throws VerbsException if ibv_modify_qp fails (e.g. EINVAL for a wrong GID index)
     */
    public synchronized void toRtr(RtrAttributes attributes) {
        QpState from = checkedFrom(QpState.RTR);
        if (attributes.maxDestRdAtomic != null && attributes.maxDestRdAtomic > device.maxQpRdAtom()) {
            throw new IllegalArgumentException("RTR for " + type + ": max destination RD atomic "
                    + attributes.maxDestRdAtomic + " exceeds the device limit max_qp_rd_atom=" + device.maxQpRdAtom());
        }
        boolean roce = type != QpType.UD && attributes.remote != null
                && context.queryPort(attributes.remote.port()).linkLayer() == PortAttributes.LINK_LAYER_ETHERNET;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            modify(arena, from, QpState.RTR, attr, QpTransitions.rtr(type, attributes, roce, attr));
        }
    }

    /**
     * RTR → RTS: after this the QP sends. From SQD or SQE only the state changes.
     *
     * @param attributes the send PSN and (RC) timeouts and retry counts; ignored except for the state
     *                   when coming from SQD or SQE
     * @throws QpStateException if the QP is not in RTR, SQD or SQE
     * @throws IllegalArgumentException if an attribute is missing or above the device's limits
     *         (max_qp_init_rd_atom)
     * @throws IllegalStateException if the QP is closed
     * @throws VerbsException if ibv_modify_qp fails
     */
    public synchronized void toRts(RtsAttributes attributes) {
        QpState from = checkedFrom(QpState.RTS);
        if (attributes.maxRdAtomic != null && attributes.maxRdAtomic > device.maxQpInitRdAtom()) {
            throw new IllegalArgumentException("RTS for " + type + ": max RD atomic " + attributes.maxRdAtomic
                    + " exceeds the device limit max_qp_init_rd_atom=" + device.maxQpInitRdAtom());
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            int mask = from == QpState.RTR ? QpTransitions.rts(type, attributes, attr)
                    : QpTransitions.stateOnly(QpState.RTS, attr);
            modify(arena, from, QpState.RTS, attr, mask);
        }
    }

    /**
     * RTS → SQD: the send queue drains and stops taking new work.
     *
     * @throws QpStateException if the QP is not in RTS
     * @throws IllegalStateException if the QP is closed
     * @throws VerbsException if ibv_modify_qp fails (not every provider supports SQD)
     */
    public synchronized void toSqd() {
        toStateOnly(QpState.SQD);
    }

    /**
     * Any state → ERR: outstanding and future work requests complete with WR_FLUSH_ERR.
     *
     * @throws IllegalStateException if the QP is closed
     * @throws VerbsException if ibv_modify_qp fails
     */
    public synchronized void toError() {
        toStateOnly(QpState.ERR);
    }

    /**
     * Any state → RESET: queues emptied, the QP can be connected again from INIT.
     *
     * @throws IllegalStateException if the QP is closed
     * @throws VerbsException if ibv_modify_qp fails
     */
    public synchronized void toReset() {
        toStateOnly(QpState.RESET);
    }

    /**
     * Moves to {@code to} with attributes someone else filled in (rdma_cm's rdma_init_qp_attr);
     * the transition is still checked against the state machine.
     */
    synchronized void modifyPrepared(QpState to, MemorySegment attr, int mask) {
        QpState from = checkedFrom(to);
        try (Arena arena = Arena.ofConfined()) {
            modify(arena, from, to, attr, mask);
        }
    }

    private void toStateOnly(QpState to) {
        QpState from = checkedFrom(to);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            modify(arena, from, to, attr, QpTransitions.stateOnly(to, attr));
        }
    }

    /**
     * The state to move from. The state libibverbs recorded at the last modify is usually right;
     * when it says the move is illegal we ask the device, since the QP may have gone to ERR on
     * its own.
     */
    private QpState checkedFrom(QpState to) {
        QpState recorded = QpState.of(ibv_qp.state(handle()));
        try {
            QpTransitions.checkTransition(recorded, to);
            return recorded;
        } catch (QpStateException e) {
            QpState actual = state();
            QpTransitions.checkTransition(actual, to);
            return actual;
        }
    }

    private void modify(Arena arena, QpState from, QpState to, MemorySegment attr, int mask) {
        MemorySegment errno = ErrnoCapture.allocate(arena);
        int rc;
        try {
            rc = (int) MODIFY_QP.invokeExact(errno, handle(), attr, mask);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
        if (rc != 0) {
            int e = rc > 0 ? rc : ErrnoCapture.read(errno);
            throw new VerbsException("cannot move " + type + " QP 0x" + Integer.toHexString(qpNumber) + " from " + from
                    + " to " + to + " (mask " + QpAttrMask.describe(mask) + ")", "ibv_modify_qp", e,
                    Hints.hint("ibv_modify_qp", e));
        }
    }

    // ---- query ---------------------------------------------------------------------------

    /**
     * {@code ibv_query_qp} with every attribute verbs4j knows about.
     *
     * @return a snapshot of the QP's state and attributes
     * @throws IllegalStateException if the QP is closed
     * @throws VerbsException if the query fails
     */
    public synchronized QpAttributes query() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            MemorySegment init = arena.allocate(ibv_qp_init_attr.layout());
            int rc = (int) QUERY_QP.invokeExact(errno, handle(), attr, QUERY_ALL, init);
            Calls.checkStatus(rc, errno, "ibv_query_qp", "cannot query QP 0x" + Integer.toHexString(qpNumber));
            return new QpAttributes(QpState.of(ibv_qp_attr.qp_state(attr)), type, qpNumber,
                    readCapabilities(ibv_qp_attr.cap(attr)), PathMtu.of(ibv_qp_attr.path_mtu(attr)),
                    ibv_qp_attr.qkey(attr), ibv_qp_attr.rq_psn(attr), ibv_qp_attr.sq_psn(attr),
                    ibv_qp_attr.dest_qp_num(attr), ibv_qp_attr.qp_access_flags(attr),
                    Short.toUnsignedInt(ibv_qp_attr.pkey_index(attr)), Byte.toUnsignedInt(ibv_qp_attr.port_num(attr)),
                    Byte.toUnsignedInt(ibv_qp_attr.timeout(attr)), Byte.toUnsignedInt(ibv_qp_attr.retry_cnt(attr)),
                    Byte.toUnsignedInt(ibv_qp_attr.rnr_retry(attr)), Byte.toUnsignedInt(ibv_qp_attr.max_rd_atomic(attr)),
                    Byte.toUnsignedInt(ibv_qp_attr.max_dest_rd_atomic(attr)),
                    Byte.toUnsignedInt(ibv_qp_attr.min_rnr_timer(attr)), ibv_qp_attr.sq_draining(attr) != 0,
                    AddressVector.readFrom(ibv_qp_attr.ah_attr(attr)));
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    // ---- work requests -------------------------------------------------------------------

    /**
     * A chain of {@code chainLength} send work requests with {@code sgesPerRequest} SGEs each,
     * built once in native memory. For one thread at a time.
     *
     * @param chainLength    requests in the chain, at least 1
     * @param sgesPerRequest SGEs per request, 0 to {@link QpCapabilities#maxSendSge()}
     * @return the chain, owned by the caller, who closes it before this QP
     * @throws IllegalArgumentException if a count is out of range
     * @throws IllegalStateException if the QP is closed
     */
    public PreparedSend prepareSend(int chainLength, int sgesPerRequest) {
        handle();
        return new PreparedSend(this, chainLength, sgesPerRequest);
    }

    /**
     * A chain of receive work requests for this QP's own receive queue, built once in native memory.
     * For one thread at a time.
     *
     * @param chainLength    requests in the chain, 1 to {@link QpCapabilities#maxRecvWorkRequests()}
     * @param sgesPerRequest SGEs per request, 0 to {@link QpCapabilities#maxRecvSge()}
     * @return the chain, owned by the caller, who closes it before this QP
     * @throws IllegalArgumentException if a count is out of range
     * @throws IllegalStateException if the QP is closed or receives through an SRQ
     */
    public PreparedReceive prepareReceive(int chainLength, int sgesPerRequest) {
        handle();
        if (srq != null) {
            throw new IllegalStateException("this QP receives through its shared receive queue; "
                    + "post receives with SharedReceiveQueue.prepareReceive");
        }
        if (sgesPerRequest > capabilities.maxRecvSge()) {
            throw new IllegalArgumentException("this QP allows " + capabilities.maxRecvSge()
                    + " SGEs per receive (max_recv_sge), asked for " + sgesPerRequest);
        }
        return new PreparedReceive(this, pd, context.ops().postRecv, "ibv_post_recv", chainLength, sgesPerRequest,
                capabilities.maxRecvWorkRequests(), capabilities.maxRecvSge(), "max_recv_wr");
    }

    ContextOps ops() {
        return context.ops();
    }

    DeviceAttributes deviceAttributes() {
        return device;
    }

    Context context() {
        return context;
    }

    MemorySegment pointer() {
        return handle();
    }

    @Override
    void destroy(MemorySegment qp) {
        if (destroyer != null) {
            destroyer.destroy(qp);
        } else {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment errno = ErrnoCapture.allocate(arena);
                int rc = (int) DESTROY_QP.invokeExact(errno, qp);
                Calls.checkStatus(rc, errno, "ibv_destroy_qp", "cannot destroy QP 0x" + Integer.toHexString(qpNumber));
            } catch (Throwable t) {
                throw Calls.rethrow(t);
            }
        }
        for (Dependency d : dependencies) {
            d.close();
        }
    }

    @Override
    public String toString() {
        return "QueuePair[" + type + " 0x" + Integer.toHexString(qpNumber) + (isClosed() ? ", closed]" : "]");
    }
}
