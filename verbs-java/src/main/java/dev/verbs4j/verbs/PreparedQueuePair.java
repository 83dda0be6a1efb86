package dev.verbs4j.verbs;

import java.util.Set;

/**
 * A queue pair created and waiting in RESET, with every attribute of its INIT, RTR and RTS
 * transitions already fixed by its {@link QueuePairBuilder}. Send {@link #endpoint()} to the peer,
 * receive the peer's, then {@link #connect(QueuePairEndpoint)} (RC, UC) or {@link #activate()}
 * (UD) to get a {@link QueuePair} ready to send.
 *
 * <p>Ownership: until it is connected or activated, this object owns the QP and {@link #close()}
 * destroys it. {@code connect} and {@code activate} hand the QP over: from then on the caller
 * closes the returned {@link QueuePair} (before the CQs and the PD it uses), and {@code close()}
 * here does nothing. If a transition fails, the QP is destroyed and the exception is thrown, so
 * nothing leaks. A prepared QP may be connected once: a second {@code connect} or {@code activate}
 * throws {@link IllegalStateException}.
 *
 * <p>Thread-safety: all methods may be called from any thread; they are serialized.
 *
 * <p>To drive the transitions by hand instead (other timers, rdma_cm's {@code rdma_init_qp_attr}),
 * take the QP with {@link #release()} and use {@link QueuePair#toInit}, {@link QueuePair#toRtr}
 * and {@link QueuePair#toRts}.
 */
public final class PreparedQueuePair implements AutoCloseable {
    private final QueuePair qp;
    private final int port;
    private final GidEntry gid;
    private final QueuePairEndpoint endpoint;
    private final Set<Access> remoteAccess;
    private final RtsAttributes rts;
    private final Integer maxDestRdAtomic;
    private final Integer minRnrTimer;
    private boolean handedOver;
    /** Moved to INIT early, so receives could be posted before the peer can send. */
    private boolean initialized;

    PreparedQueuePair(QueuePair qp, int port, GidEntry gid, QueuePairEndpoint endpoint, Set<Access> remoteAccess,
                      RtsAttributes rts, Integer maxDestRdAtomic, Integer minRnrTimer) {
        this.qp = qp;
        this.port = port;
        this.gid = gid;
        this.endpoint = endpoint;
        this.remoteAccess = remoteAccess;
        this.rts = rts;
        this.maxDestRdAtomic = maxDestRdAtomic;
        this.minRnrTimer = minRnrTimer;
    }

    /**
     * What the peer needs to reach this QP. Add a region with
     * {@link QueuePairEndpoint#withRegion(MemoryRegion)} when the peer should write, read or use
     * atomics on it.
     *
     * @return this QP's endpoint (no region)
     */
    public QueuePairEndpoint endpoint() {
        return endpoint;
    }

    /**
     * The type the QP was built with.
     *
     * @return RC, UC or UD
     */
    public QpType type() {
        return qp.type();
    }

    /**
     * The port the QP uses.
     *
     * @return the port number
     */
    public int port() {
        return port;
    }

    /**
     * The local GID the QP routes from (RoCE).
     *
     * @return the GID entry, or null on an InfiniBand port
     */
    public GidEntry localGid() {
        return gid;
    }

    /**
     * Receives posted before {@link #connect}, so that the peer's first messages find them: the QP
     * goes to INIT now (receives may be posted from INIT on) and {@link #connect} goes on from
     * there. RC and UC only.
     *
     * @param chainLength    receive requests per post, as {@link QueuePair#prepareReceive}
     * @param sgesPerRequest scatter/gather entries per request
     * @return the prepared receives, owned by the caller (close them before the QP)
     * @throws IllegalStateException    when this QP was already connected, activated or released
     * @throws IllegalArgumentException on a UD QP
     * @throws VerbsException           when the INIT transition fails (the QP stays prepared in RESET)
     */
    public synchronized PreparedReceive prepareReceive(int chainLength, int sgesPerRequest) {
        if (qp.type() == QpType.UD) {
            throw new IllegalArgumentException("a UD QP posts its receives after activate()");
        }
        checkNotHandedOver();
        if (!initialized) {
            qp.toInit(InitAttributes.connected(port, remoteAccess));
            initialized = true;
        }
        return qp.prepareReceive(chainLength, sgesPerRequest);
    }

    /**
     * RC or UC: INIT (unless {@link #prepareReceive} did it), RTR against {@code remote}, RTS.
     * The path MTU is the smaller of ours and the peer's.
     *
     * @param remote the peer's endpoint, as its {@link #endpoint()} made it
     * @return the QP in RTS, now owned by the caller
     * @throws IllegalStateException    when this QP was already connected, activated or released
     * @throws IllegalArgumentException on a UD QP, or when the peer has a GID and we do not
     * @throws VerbsException           when a transition fails; the QP is destroyed. RTR failures
     *                                  explain the usual routing causes
     */
    public synchronized QueuePair connect(QueuePairEndpoint remote) {
        if (qp.type() == QpType.UD) {
            throw new IllegalArgumentException("a UD QP has no peer to connect to: use activate() and address each "
                    + "send with addressHandleTo(remoteEndpoint)");
        }
        checkNotHandedOver();
        if (remote.gid() != null && gid == null) {
            throw new IllegalArgumentException("the peer " + remote + " is reached by GID but port " + port
                    + " is InfiniBand without a chosen GID");
        }
        handedOver = true;
        try {
            if (!initialized) {
                qp.toInit(InitAttributes.connected(port, remoteAccess));
            }
            PathMtu mtu = remote.mtu().value() < endpoint.mtu().value() ? remote.mtu() : endpoint.mtu();
            RtrAttributes.Builder rtr = RtrAttributes.builder().remote(addressOf(remote)).pathMtu(mtu)
                    .destQpNumber(remote.qpNumber()).rqPsn(remote.psn());
            if (maxDestRdAtomic != null) {
                rtr.maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(minRnrTimer);
            }
            try {
                qp.toRtr(rtr.build());
            } catch (VerbsException e) {
                throw routeFailure(remote, e);
            }
            qp.toRts(rts);
            return qp;
        } catch (RuntimeException | Error e) {
            closeQuietly(e);
            throw e;
        }
    }

    /**
     * UD: INIT (with the Q_Key), RTR, RTS. Sends then go to peers through address handles
     * ({@link #addressHandleTo(QueuePairEndpoint)}) with the peer's QP number and Q_Key.
     *
     * @return the QP in RTS, now owned by the caller
     * @throws IllegalStateException    when this QP was already activated, connected or released
     * @throws IllegalArgumentException on an RC or UC QP
     * @throws VerbsException           when a transition fails; the QP is destroyed
     */
    public synchronized QueuePair activate() {
        if (qp.type() != QpType.UD) {
            throw new IllegalArgumentException("a " + qp.type() + " QP needs its peer: use connect(remoteEndpoint)");
        }
        checkNotHandedOver();
        handedOver = true;
        try {
            qp.toInit(InitAttributes.datagram(port, endpoint.qkey()));
            qp.toRtr(RtrAttributes.datagram());
            qp.toRts(rts);
            return qp;
        } catch (RuntimeException | Error e) {
            closeQuietly(e);
            throw e;
        }
    }

    /**
     * An address handle for UD sends from this QP's port and GID to {@code remote}. It may be made
     * before or after {@link #activate()}.
     *
     * @param remote the peer's endpoint
     * @return a new address handle, owned by the caller (close it before the PD)
     * @throws VerbsException when the address handle cannot be created
     */
    public AddressHandle addressHandleTo(QueuePairEndpoint remote) {
        return qp.protectionDomain().createAddressHandle(addressOf(remote));
    }

    /**
     * Takes the QP out, still in RESET, to move through its states by hand. From then on the
     * caller closes it.
     *
     * @return the QP
     * @throws IllegalStateException when it was already handed over
     */
    public synchronized QueuePair release() {
        checkNotHandedOver();
        handedOver = true;
        return qp;
    }

    /** Destroys the QP unless it was handed over by connect, activate or release. */
    @Override
    public synchronized void close() {
        if (!handedOver) {
            handedOver = true;
            qp.close();
        }
    }

    /** The remote access the builder was given (RC, UC), for transitions driven by rdma_cm. */
    Set<Access> remoteAccess() {
        return remoteAccess;
    }

    private AddressVector addressOf(QueuePairEndpoint remote) {
        return remote.addressFrom(port, gid == null ? 0 : gid.index());
    }

    private void checkNotHandedOver() {
        if (handedOver) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.number())
                    + " was already connected, activated, released or closed; a prepared QP is used once");
        }
    }

    private VerbsException routeFailure(QueuePairEndpoint remote, VerbsException e) {
        String where = gid == null ? "LID " + remote.lid() : "GID " + (remote.gid() == null ? "none"
                : java.util.HexFormat.of().formatHex(remote.gid())) + " from local GID index " + gid.index()
                + " (" + gid.formatted() + ")";
        return new VerbsException("cannot reach the peer QP 0x" + Integer.toHexString(remote.qpNumber()) + " at "
                + where + ": " + e.getMessage(), e.verb(), e.errno(), "check that the GID index is a RoCE v2 GID "
                + "whose address the peer can route to (ibv_devinfo -v, show_gids), and that no firewall drops "
                + "UDP port 4791 between the hosts");
    }

    private void closeQuietly(Throwable cause) {
        try {
            qp.close();
        } catch (RuntimeException | Error suppressed) {
            cause.addSuppressed(suppressed);
        }
    }

    @Override
    public String toString() {
        return "PreparedQueuePair[" + endpoint + (handedOver ? ", handed over" : "") + "]";
    }
}
