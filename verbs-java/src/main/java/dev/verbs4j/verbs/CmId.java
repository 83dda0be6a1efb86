package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_qp_cap;
import dev.verbs4j.bindings.ibv_qp_init_attr;
import dev.verbs4j.bindings.rdma_addr;
import dev.verbs4j.bindings.rdma_cm_id;
import dev.verbs4j.bindings.rdma_route;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * {@code struct rdma_cm_id}: one end of an rdma_cm connection, addressed by IP and port like a
 * socket, from {@link CmEventChannel#createId(CmPortSpace)} or a connect request's
 * {@link CmEvent#id()}. The {@code start*} methods only issue the request; the others also wait,
 * within a timeout, for the event that completes it and throw {@link CmException} when another
 * comes.
 *
 * <p>Client: {@link #resolveAddress}, {@link #resolveRoute}, {@link #createQueuePair},
 * {@link #connect}. Server: {@link #bind}, {@link #listen}, {@link #awaitConnectRequest}, then on
 * the new id of the request: {@link #createQueuePair}, {@link #accept} (or {@link #reject}).
 *
 * <p><b>Ownership.</b> The caller owns every id, including those that connect requests deliver,
 * and closes each before the {@link CmEventChannel}. Closing an id destroys its QP first (the QP
 * may also be closed on its own before). The id's {@link Context} belongs to librdmacm; the PD,
 * CQs and completion channel the caller makes on it are the caller's: close them after the id's
 * QP (or after the id, which closes it).
 *
 * <p><b>Threads.</b> Calls on one id may come from several threads, but events are per id: two
 * threads awaiting events of the same id would take each other's. Different ids of one channel
 * may be awaited from different threads.
 *
 * <p><b>Size.</b> One job: each rdma_cm call on an id with the wait for the event that completes it
 * and that event's checks. The calls share the id's state and its event wait, so they stay together.
 */
public final class CmId extends NativeObject {
    private static final MethodHandle CREATE_ID = NativeLibraries.rdmacm("rdma_create_id", Rdma.rdma_create_id$descriptor());
    private static final MethodHandle DESTROY_ID = NativeLibraries.rdmacm("rdma_destroy_id", Rdma.rdma_destroy_id$descriptor());
    private static final MethodHandle BIND_ADDR = NativeLibraries.rdmacm("rdma_bind_addr", Rdma.rdma_bind_addr$descriptor());
    private static final MethodHandle RESOLVE_ADDR =
            NativeLibraries.rdmacm("rdma_resolve_addr", Rdma.rdma_resolve_addr$descriptor());
    private static final MethodHandle RESOLVE_ROUTE =
            NativeLibraries.rdmacm("rdma_resolve_route", Rdma.rdma_resolve_route$descriptor());
    private static final MethodHandle LISTEN = NativeLibraries.rdmacm("rdma_listen", Rdma.rdma_listen$descriptor());
    private static final MethodHandle CONNECT = NativeLibraries.rdmacm("rdma_connect", Rdma.rdma_connect$descriptor());
    private static final MethodHandle ACCEPT = NativeLibraries.rdmacm("rdma_accept", Rdma.rdma_accept$descriptor());
    private static final MethodHandle REJECT = NativeLibraries.rdmacm("rdma_reject", Rdma.rdma_reject$descriptor());
    private static final MethodHandle DISCONNECT =
            NativeLibraries.rdmacm("rdma_disconnect", Rdma.rdma_disconnect$descriptor());
    private static final MethodHandle CREATE_QP = NativeLibraries.rdmacm("rdma_create_qp", Rdma.rdma_create_qp$descriptor());
    private static final MethodHandle DESTROY_QP =
            NativeLibraries.rdmacm("rdma_destroy_qp", Rdma.rdma_destroy_qp$descriptor());

    /** Waited beyond librdmacm's own timeout, so that its error event, not ours, reports a failure. */
    private static final Duration SLACK = Duration.ofSeconds(2);

    private final CmEventChannel channel;
    private final CmPortSpace portSpace;
    private volatile QueuePair queuePair;

    CmId(CmEventChannel channel, MemorySegment id, CmPortSpace portSpace) {
        super("rdma_cm id", id, channel);
        this.channel = channel;
        this.portSpace = portSpace;
        channel.register(this, id);
    }

    static CmId create(CmEventChannel channel, CmPortSpace portSpace) {
        Objects.requireNonNull(portSpace, "portSpace");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            int rc = (int) CREATE_ID.invokeExact(errno, channel.pointer(), out, MemorySegment.NULL, portSpace.value());
            Calls.checkStatus(rc, errno, "rdma_create_id", "cannot create an rdma_cm id (" + portSpace + ")");
            return new CmId(channel, out.get(ValueLayout.ADDRESS, 0).reinterpret(rdma_cm_id.sizeof()), portSpace);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * The channel this id's events arrive on.
     *
     * @return the channel (not owned by the id)
     */
    public CmEventChannel channel() {
        return channel;
    }

    /**
     * The port space the id was created in.
     *
     * @return TCP (RC), UDP (UD), IPOIB or IB
     */
    public CmPortSpace portSpace() {
        return portSpace;
    }

    /**
     * {@code rdma_bind_addr}: port 0 picks a free port; the wildcard address binds to no device yet.
     *
     * @param local the local address and port to bind to
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the bind fails (EADDRINUSE, EADDRNOTAVAIL...)
     */
    public void bind(InetSocketAddress local) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) BIND_ADDR.invokeExact(errno, handle(), CmSocketAddresses.toNative(local, arena));
            Calls.checkStatus(rc, errno, "rdma_bind_addr", "cannot bind to " + local);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * {@code rdma_resolve_addr}; ADDR_RESOLVED or ADDR_ERROR follows. {@code source} may be null.
     *
     * @param source      the local address to use, or null to let routing choose
     * @param destination the peer's address and port
     * @param timeout how long to wait, positive
     * @throws IllegalArgumentException if {@code timeout} is not positive
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the request cannot be issued
     */
    public void startResolveAddress(InetSocketAddress source, InetSocketAddress destination, Duration timeout) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment src = source == null ? MemorySegment.NULL : CmSocketAddresses.toNative(source, arena);
            int rc = (int) RESOLVE_ADDR.invokeExact(errno, handle(), src,
                    CmSocketAddresses.toNative(destination, arena), millis(timeout));
            Calls.checkStatus(rc, errno, "rdma_resolve_addr", "cannot resolve " + destination);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * Resolves {@code destination} to a local device and port and waits for ADDR_RESOLVED; this binds
     * the id to that device.
     *
     * @param source      the local address to use, or null to let routing choose
     * @param destination the peer's address and port
     * @param timeout how long to wait, positive (librdmacm's own timeout; the wait adds two seconds)
     * @throws CmException if ADDR_ERROR or another event comes, or none in time
     * @throws IllegalArgumentException if {@code timeout} is not positive
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the request cannot be issued
     */
    public void resolveAddress(InetSocketAddress source, InetSocketAddress destination, Duration timeout) {
        startResolveAddress(source, destination, timeout);
        await(CmEventType.ADDR_RESOLVED, timeout.plus(SLACK), "rdma_resolve_addr");
    }

    /**
     * {@code rdma_resolve_route}; ROUTE_RESOLVED or ROUTE_ERROR follows.
     *
     * @param timeout how long to wait, positive
     * @throws IllegalArgumentException if {@code timeout} is not positive
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the request cannot be issued (e.g. the address is not resolved)
     */
    public void startResolveRoute(Duration timeout) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) RESOLVE_ROUTE.invokeExact(errno, handle(), millis(timeout));
            Calls.checkStatus(rc, errno, "rdma_resolve_route", "cannot resolve a route to " + peerAddress());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * Resolves the route to the resolved address and waits for ROUTE_RESOLVED.
     *
     * @param timeout how long to wait, positive (librdmacm's own timeout; the wait adds two seconds)
     * @throws CmException if ROUTE_ERROR or another event comes, or none in time
     * @throws IllegalArgumentException if {@code timeout} is not positive
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the request cannot be issued
     */
    public void resolveRoute(Duration timeout) {
        startResolveRoute(timeout);
        await(CmEventType.ROUTE_RESOLVED, timeout.plus(SLACK), "rdma_resolve_route");
    }

    /**
     * {@code rdma_listen}: connect requests arrive as CONNECT_REQUEST events with a new id each.
     *
     * @param backlog pending connect requests the kernel queues; 0 or less takes the kernel's maximum
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the id is not bound or cannot listen
     */
    public void listen(int backlog) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) LISTEN.invokeExact(errno, handle(), backlog);
            Calls.checkStatus(rc, errno, "rdma_listen", "cannot listen on " + localAddress());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * The next connection request on this listening id; its {@link CmEvent#id()} is the new id.
     *
     * @param timeout how long to wait, positive
     * @return the CONNECT_REQUEST event; the caller owns its new id and must accept or reject, then
     *         close it
     * @throws CmException if another event comes, or none in time
     * @throws IllegalStateException if the id is closed
     */
    public CmEvent awaitConnectRequest(Duration timeout) {
        return await(CmEventType.CONNECT_REQUEST, timeout, "rdma_listen");
    }

    /**
     * {@code rdma_connect}; ESTABLISHED, or REJECTED / UNREACHABLE / CONNECT_ERROR follows.
     *
     * @param parameters private data, responder resources, retry counts
     * @throws IllegalArgumentException if the private data is too long for the port space
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the request cannot be issued (EINVAL on a port without QP1 says so)
     */
    public void startConnect(CmConnectionParameters parameters) {
        CmPrivateData.check(parameters.privateData(), portSpace, CmPrivateData.Message.CONNECT);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) CONNECT.invokeExact(errno, handle(), parameters.toNative(arena));
            if (rc != 0) {
                throw connectFailure(rc > 0 ? rc : ErrnoCapture.read(errno));
            }
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /** rdma_connect's EINVAL on a port without QP1 names that cause instead of "an argument is out of range". */
    private VerbsException connectFailure(int errno) {
        Context ctx = errno == Errno.EINVAL ? context() : null;
        String cause = ctx == null ? null : CmPortSupport.hint(ctx.name(), port());
        return cause == null ? Hints.exception("cannot connect to " + peerAddress(), "rdma_connect", errno)
                : new VerbsException("cannot connect to " + peerAddress(), "rdma_connect", errno, cause);
    }

    /**
     * Connects and waits for ESTABLISHED; the returned event carries the server's private data.
     *
     * @param parameters private data, responder resources, retry counts
     * @param timeout how long to wait, positive
     * @return the ESTABLISHED event
     * @throws CmException if the server rejects, the peer is unreachable, or nothing comes in time
     * @throws IllegalArgumentException if the private data is too long for the port space
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the request cannot be issued
     */
    public CmEvent connect(CmConnectionParameters parameters, Duration timeout) {
        startConnect(parameters);
        return await(CmEventType.ESTABLISHED, timeout, "rdma_connect");
    }

    /**
     * {@code rdma_accept} on the id of a connect request; ESTABLISHED follows.
     *
     * @param parameters private data for the client, responder resources
     * @throws IllegalArgumentException if the private data is too long for the port space
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the accept fails
     */
    public void startAccept(CmConnectionParameters parameters) {
        CmPrivateData.check(parameters.privateData(), portSpace, CmPrivateData.Message.ACCEPT);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) ACCEPT.invokeExact(errno, handle(), parameters.toNative(arena));
            Calls.checkStatus(rc, errno, "rdma_accept", "cannot accept the connection from " + peerAddress());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * Accepts and waits until the client confirms (ESTABLISHED).
     *
     * @param parameters private data for the client, responder resources
     * @param timeout how long to wait, positive
     * @return the ESTABLISHED event
     * @throws CmException if another event comes, or none in time
     * @throws IllegalArgumentException if the private data is too long for the port space
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the accept fails
     */
    public CmEvent accept(CmConnectionParameters parameters, Duration timeout) {
        startAccept(parameters);
        return await(CmEventType.ESTABLISHED, timeout, "rdma_accept");
    }

    /**
     * {@code rdma_reject} on the id of a connect request; close the id afterwards.
     *
     * @param privateData what the client's REJECTED event carries, or null for none
     * @throws IllegalArgumentException if the private data is too long for the port space
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the reject fails
     */
    public void reject(byte[] privateData) {
        byte[] data = privateData == null ? new byte[0] : privateData;
        CmPrivateData.check(data, portSpace, CmPrivateData.Message.REJECT);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment native_ = data.length == 0 ? MemorySegment.NULL : arena.allocateFrom(ValueLayout.JAVA_BYTE, data);
            int rc = (int) REJECT.invokeExact(errno, handle(), native_, (byte) data.length);
            Calls.checkStatus(rc, errno, "rdma_reject", "cannot reject the connection from " + peerAddress());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * {@code rdma_disconnect}: moves the QP to the error state; DISCONNECTED follows on both ends.
     *
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the id is not connected
     */
    public void startDisconnect() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) DISCONNECT.invokeExact(errno, handle());
            Calls.checkStatus(rc, errno, "rdma_disconnect", "cannot disconnect from " + peerAddress());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * Disconnects and waits for DISCONNECTED.
     *
     * @param timeout how long to wait, positive
     * @throws CmException if another event comes, or none in time
     * @throws IllegalStateException if the id is closed
     * @throws VerbsException if the id is not connected
     */
    public void disconnect(Duration timeout) {
        startDisconnect();
        awaitDisconnected(timeout);
    }

    /**
     * Waits until the peer (or this end) has disconnected.
     *
     * @param timeout how long to wait, positive
     * @throws CmException if another event comes, or none in time
     * @throws IllegalStateException if the id is closed
     */
    public void awaitDisconnected(Duration timeout) {
        await(CmEventType.DISCONNECTED, timeout, "rdma_disconnect");
    }

    /**
     * The next event of this id, which must be {@code expected}; throws CmException naming the event
     * that came instead, or that none came within {@code timeout}.
     *
     * @param expected the event type waited for
     * @param timeout how long to wait, positive
     * @return the event (already acknowledged)
     * @throws CmException if another event comes, or none in time
     * @throws IllegalStateException if the id is closed
     */
    public CmEvent await(CmEventType expected, Duration timeout) {
        return await(expected, timeout, "rdma_get_cm_event");
    }

    private CmEvent await(CmEventType expected, Duration timeout, String verb) {
        CmEvent event = nextEvent(timeout);
        if (event == null) {
            throw CmException.timedOut(verb, expected, timeout);
        }
        if (event.type() != expected) {
            throw CmException.unexpected(verb, expected, event);
        }
        return event;
    }

    /**
     * The next event of this id (events of other ids on the channel are kept for them), or null.
     *
     * @param timeout how long to wait, positive
     * @return the event (already acknowledged), or null when none came in time
     * @throws IllegalStateException if the id or its channel is closed
     */
    public CmEvent nextEvent(Duration timeout) {
        handle();
        return channel.nextFor(this, timeout);
    }

    /**
     * {@code rdma_create_qp}: a QP on this id's device that rdma_cm moves through INIT, RTR and
     * RTS itself during connect/accept. Create it after resolving the route (client) or on the id
     * of a connect request (server), with a PD and CQs from {@link #context()}. Closing the id
     * closes the QP.
     *
     * @param pd   a PD allocated from {@link #context()}
     * @param init type (RC for TCP, UD for UDP/IPOIB), CQs and queue sizes
     * @return the QP, owned by this id (closing it early is allowed); close it before {@code pd} and its CQs
     * @throws IllegalStateException if the id already has an open QP, is not bound to a device, or is closed
     * @throws IllegalArgumentException if the QP type does not fit the port space or {@code pd} is on
     *         another device
     * @throws VerbsException if the verb fails
     */
    public QueuePair createQueuePair(ProtectionDomain pd, QpInitAttributes init) {
        MemorySegment id = handle();
        if (queuePair != null && !queuePair.isClosed()) {
            throw new IllegalStateException("this id already has a QP: " + queuePair);
        }
        checkQpType(init.type());
        MemorySegment verbs = rdma_cm_id.verbs(id);
        if (CmNative.isNull(verbs)) {
            throw new IllegalStateException("this id is not bound to a device yet: resolve an address first");
        }
        if (pd.context().pointer().address() != verbs.address()) {
            throw new IllegalArgumentException("the protection domain is on " + pd.context().name()
                    + ", not on this id's device context: allocate it from cmId.context()");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment attr = arena.allocate(ibv_qp_init_attr.layout());
            attr.fill((byte) 0);
            ibv_qp_init_attr.send_cq(attr, init.sendCq.pointer());
            ibv_qp_init_attr.recv_cq(attr, init.recvCq.pointer());
            ibv_qp_init_attr.srq(attr, init.srq == null ? MemorySegment.NULL : init.srq.pointer());
            ibv_qp_init_attr.qp_type(attr, init.type().value());
            ibv_qp_init_attr.sq_sig_all(attr, init.signalAll ? 1 : 0);
            MemorySegment cap = ibv_qp_init_attr.cap(attr);
            QpCapabilities c = init.capabilities();
            ibv_qp_cap.max_send_wr(cap, c.maxSendWorkRequests());
            ibv_qp_cap.max_recv_wr(cap, init.srq == null ? c.maxRecvWorkRequests() : 0);
            ibv_qp_cap.max_send_sge(cap, c.maxSendSge());
            ibv_qp_cap.max_recv_sge(cap, init.srq == null ? c.maxRecvSge() : 0);
            ibv_qp_cap.max_inline_data(cap, c.maxInlineData());
            int rc = (int) CREATE_QP.invokeExact(errno, id, pd.pointer(), attr);
            Calls.checkStatus(rc, errno, "rdma_create_qp", "cannot create a " + init.type() + " QP with " + c);
            // the QP is released through its id, so rdma_cm forgets it too
            QueuePair qp = new QueuePair(pd, rdma_cm_id.qp(id), init.type(), init.sendCq, init.recvCq, init.srq,
                    null, ignored -> destroyQp(id));
            queuePair = qp;
            return qp;
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * The QP made by {@link #createQueuePair}.
     *
     * @return the QP, or null when there is none or it was closed
     */
    public QueuePair queuePair() {
        QueuePair qp = queuePair;
        return qp == null || qp.isClosed() ? null : qp;
    }

    private void checkQpType(QpType type) {
        boolean fits = switch (portSpace) {
            case TCP -> type == QpType.RC;
            case UDP, IPOIB -> type == QpType.UD;
            case IB -> true;
        };
        if (!fits) {
            throw new IllegalArgumentException("a " + type + " QP does not fit port space " + portSpace
                    + " (TCP takes RC, UDP and IPOIB take UD)");
        }
    }

    private static void destroyQp(MemorySegment id) {
        try (Arena arena = Arena.ofConfined()) {
            DESTROY_QP.invokeExact(ErrnoCapture.allocate(arena), id);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * The local address, once bound or resolved.
     *
     * @return the address, or null before
     * @throws IllegalStateException if the id is closed
     */
    public InetSocketAddress localAddress() {
        return CmSocketAddresses.fromNative(rdma_addr.src_storage(address()));
    }

    /**
     * The peer's address, once resolved or connected.
     *
     * @return the address, or null before
     * @throws IllegalStateException if the id is closed
     */
    public InetSocketAddress peerAddress() {
        return CmSocketAddresses.fromNative(rdma_addr.dst_storage(address()));
    }

    private MemorySegment address() {
        return rdma_route.addr(rdma_cm_id.route(handle()));
    }

    /**
     * The device this id is bound to (after resolving an address, binding to a device's address,
     * or on a connect request), or null. librdmacm owns it: closing it is allowed but not needed.
     *
     * @return a context borrowed from librdmacm, or null before the id is bound to a device
     */
    public Context context() {
        MemorySegment verbs = rdma_cm_id.verbs(handle());
        return CmNative.isNull(verbs) ? null : CmDeviceContexts.of(verbs);
    }

    /**
     * The device port this id is bound to, or 0 before it is bound to a device.
     *
     * @return the port number, from 1, or 0
     * @throws IllegalStateException if the id is closed
     */
    public int port() {
        return Byte.toUnsignedInt(rdma_cm_id.port_num(handle()));
    }

    private static int millis(Duration timeout) {
        long ms = timeout.toMillis();
        if (ms <= 0) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        return (int) Math.min(ms, Integer.MAX_VALUE);
    }

    @Override
    void destroy(MemorySegment id) {
        QueuePair qp = queuePair;
        if (qp != null) {
            qp.close();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) DESTROY_ID.invokeExact(errno, id);
            Calls.checkStatus(rc, errno, "rdma_destroy_id", "cannot destroy the rdma_cm id");
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
        channel.forget(this, id);
    }

    @Override
    public String toString() {
        if (isClosed()) {
            return "CmId[" + portSpace + ", closed]";
        }
        return "CmId[" + portSpace + ", local " + localAddress() + ", peer " + peerAddress() + "]";
    }
}
