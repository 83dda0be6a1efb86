package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_qp_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * Connects a {@link PreparedQueuePair} through rdma_cm: the peer is found by IP address and port,
 * the QP numbers and PSNs travel in rdma_cm's own messages, and the QP is moved through INIT, RTR
 * and RTS with the attributes rdma_cm computes ({@code rdma_init_qp_attr}). The QP stays the
 * caller's, not the id's ({@code rdma_create_qp} is not used), so it may be built with any
 * {@link QueuePairBuilder} settings on the id's device ({@link CmId#context()}).
 *
 * <p>Client: {@link #resolve} → build the prepared QP on {@code id.context()} → {@link #connect}.
 * Server: {@link CmId#bind}, {@link CmId#listen}, {@link CmId#awaitConnectRequest} → build the
 * prepared QP on the request id's context → {@link #accept}.
 *
 * <p>Every wait has a deadline, and a REJECTED, UNREACHABLE, CONNECT_ERROR, ADDR_ERROR or
 * ROUTE_ERROR event fails it with a {@link CmException} naming the event. On failure the QP is
 * destroyed; the ids stay the caller's. On success the caller owns the returned QP and closes it
 * before the PD and CQs, and the id (disconnect first) whenever it likes. Stateless: calls on
 * different ids may run on different threads; one id's calls must not overlap.
 */
public final class CmHandshake {
    private static final MethodHandle INIT_QP_ATTR =
            NativeLibraries.rdmacm("rdma_init_qp_attr", Rdma.rdma_init_qp_attr$descriptor());
    private static final MethodHandle ESTABLISH =
            NativeLibraries.rdmacm("rdma_establish", Rdma.rdma_establish$descriptor());

    /**
     * A connected QP and the event that completed the handshake (it carries the peer's private data
     * and connection parameters).
     *
     * @param queuePair the QP in RTS, owned by the caller
     * @param event     CONNECT_RESPONSE (client) or ESTABLISHED (server)
     */
    public record Connected(QueuePair queuePair, CmEvent event) {}

    private CmHandshake() {}

    /**
     * Client: creates an id on {@code events} in the TCP port space (reliable connections) and
     * resolves the address and the route to {@code destination}.
     *
     * @param events      the event channel the id reports on (not closed here)
     * @param destination the server's IP address and port
     * @param timeout     for each of the two resolutions
     * @return the resolved id, owned by the caller; its {@link CmId#context()} is the device to
     *         build the PD, CQ and QP on
     * @throws CmException when a resolution fails (ADDR_ERROR, ROUTE_ERROR) or times out; the id
     *                     is closed
     */
    public static CmId resolve(CmEventChannel events, InetSocketAddress destination, Duration timeout) {
        CmId id = events.createId(CmPortSpace.TCP);
        try {
            id.resolveAddress(null, destination, timeout);
            id.resolveRoute(timeout);
            return id;
        } catch (RuntimeException | Error e) {
            closeQuietly(id, e);
            throw e;
        }
    }

    /**
     * Client: connects a resolved {@code id} with {@code prepared}'s QP: INIT, rdma_connect, the
     * server's response, RTR, RTS, then rdma_establish.
     *
     * @param id         a resolved id ({@link #resolve})
     * @param prepared   an RC QP built on {@code id.context()}; handed over here
     * @param parameters private data, RDMA read depths and retries (the QP number is filled in)
     * @param timeout    for the server's answer
     * @return the QP in RTS and the CONNECT_RESPONSE event
     * @throws CmException           on REJECTED, UNREACHABLE, CONNECT_ERROR or timeout; the QP is destroyed
     * @throws IllegalStateException when {@code prepared} was already used
     */
    public static Connected connect(CmId id, PreparedQueuePair prepared, CmConnectionParameters parameters,
                                    Duration timeout) {
        Objects.requireNonNull(parameters, "parameters");
        QueuePair qp = takeQp(id, prepared);
        try {
            toState(id, qp, QpState.INIT, prepared);
            id.startConnect(withQp(parameters, qp));
            CmEvent response = id.await(CmEventType.CONNECT_RESPONSE, timeout);
            toState(id, qp, QpState.RTR, prepared);
            toState(id, qp, QpState.RTS, prepared);
            establish(id);
            return new Connected(qp, response);
        } catch (RuntimeException | Error e) {
            closeQuietly(qp, e);
            throw e;
        }
    }

    /**
     * Server: accepts the connect request on {@code requestId} with {@code prepared}'s QP: INIT,
     * RTR, RTS, rdma_accept, then waits for ESTABLISHED.
     *
     * @param requestId  the id of a CONNECT_REQUEST event ({@link CmEvent#id()})
     * @param prepared   an RC QP built on {@code requestId.context()}; handed over here
     * @param parameters private data, RDMA read depths and retries (the QP number is filled in)
     * @param timeout    for the client's confirmation
     * @return the QP in RTS and the ESTABLISHED event
     * @throws CmException           when the client goes away or does not confirm in time; the QP is destroyed
     * @throws IllegalStateException when {@code prepared} was already used
     */
    public static Connected accept(CmId requestId, PreparedQueuePair prepared, CmConnectionParameters parameters,
                                   Duration timeout) {
        Objects.requireNonNull(parameters, "parameters");
        QueuePair qp = takeQp(requestId, prepared);
        try {
            toState(requestId, qp, QpState.INIT, prepared);
            toState(requestId, qp, QpState.RTR, prepared);
            toState(requestId, qp, QpState.RTS, prepared);
            CmEvent established = requestId.accept(withQp(parameters, qp), timeout);
            return new Connected(qp, established);
        } catch (RuntimeException | Error e) {
            closeQuietly(qp, e);
            throw e;
        }
    }

    private static QueuePair takeQp(CmId id, PreparedQueuePair prepared) {
        if (prepared.type() != QpType.RC) {
            throw new IllegalArgumentException("rdma_cm's TCP port space connects RC QPs, not " + prepared.type());
        }
        Context context = id.context();
        if (context == null) {
            throw new IllegalStateException("the id is not bound to a device yet: resolve it, or use a connect "
                    + "request's id");
        }
        QueuePair qp = prepared.release();
        if (qp.protectionDomain().context().pointer().address() != context.pointer().address()) {
            IllegalArgumentException e = new IllegalArgumentException("the QP is on "
                    + qp.protectionDomain().context().name() + ", not on the id's device " + context.name()
                    + ": build it with a PD of id.context()");
            closeQuietly(qp, e);
            throw e;
        }
        return qp;
    }

    private static CmConnectionParameters withQp(CmConnectionParameters p, QueuePair qp) {
        return new CmConnectionParameters(p.privateData(), p.responderResources(), p.initiatorDepth(),
                p.flowControl(), p.retryCount(), p.rnrRetryCount(), qp.sharedReceiveQueue() != null, qp.number());
    }

    /** rdma_init_qp_attr for {@code to}, with the QP's own remote access at INIT. */
    private static void toState(CmId id, QueuePair qp, QpState to, PreparedQueuePair prepared) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            attr.fill((byte) 0);
            ibv_qp_attr.qp_state(attr, to.value());
            MemorySegment mask = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) INIT_QP_ATTR.invokeExact(errno, id.handle(), attr, mask);
            Calls.checkStatus(rc, errno, "rdma_init_qp_attr", "rdma_cm cannot give the " + to
                    + " attributes for " + id);
            int m = mask.get(ValueLayout.JAVA_INT, 0);
            if (to == QpState.INIT && (m & QpAttrMask.ACCESS_FLAGS) != 0) {
                ibv_qp_attr.qp_access_flags(attr, Access.mask(prepared.remoteAccess())
                        & Access.mask(java.util.Set.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC)));
            }
            qp.modifyPrepared(to, attr, m);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    private static void establish(CmId id) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) ESTABLISH.invokeExact(errno, id.handle());
            Calls.checkStatus(rc, errno, "rdma_establish", "cannot confirm the connection to " + id.peerAddress());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    private static void closeQuietly(AutoCloseable resource, Throwable cause) {
        try {
            resource.close();
        } catch (Exception suppressed) {
            cause.addSuppressed(suppressed);
        }
    }
}
