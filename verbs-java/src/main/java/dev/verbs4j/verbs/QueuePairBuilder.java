package dev.verbs4j.verbs;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The first stage of bringing a queue pair up: everything the QP is created with and every
 * attribute its later INIT, RTR and RTS transitions take, fixed before anything goes over the
 * wire. Made by {@link ProtectionDomain#queuePairBuilder(QpType, CompletionQueue)}; {@link #build()}
 * creates the QP and returns a {@link PreparedQueuePair} in RESET.
 *
 * <p>Defaults: port 1; on a RoCE port the GID chosen by {@link GidChooser#preferRoceV2Ipv4()};
 * the port's active MTU; a random 24-bit PSN; {@link QpCapabilities#small()}; no remote access
 * (RC and UC); Q_Key {@value #DEFAULT_QKEY} (UD); RC timers as {@link RtrAttributes} and
 * {@link RtsAttributes} document.
 *
 * <p>A builder is a plain mutable object for one thread; it owns nothing. It may be built from
 * more than once: each {@link #build()} creates a new QP.
 */
public final class QueuePairBuilder {
    /** The Q_Key UD QPs get unless {@link #qkey(int)} says otherwise. */
    public static final int DEFAULT_QKEY = 0x11111111;

    private final ProtectionDomain pd;
    private final QpType type;
    private final CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private SharedReceiveQueue srq;
    private QpCapabilities capabilities = QpCapabilities.small();
    private boolean signalAll;
    private int port = 1;
    private GidChooser gidChooser = GidChooser.preferRoceV2Ipv4();
    private PathMtu mtu;
    private Integer psn;
    private Set<Access> remoteAccess = Set.of();
    private int qkey = DEFAULT_QKEY;
    private int[] timers;
    private Integer minRnrTimer;
    private Integer maxDestRdAtomic;

    QueuePairBuilder(ProtectionDomain pd, QpType type, CompletionQueue cq) {
        this.pd = Objects.requireNonNull(pd, "protection domain");
        this.type = Objects.requireNonNull(type, "QP type");
        this.sendCq = Objects.requireNonNull(cq, "completion queue");
        this.recvCq = cq;
    }

    /**
     * Receive completions go to {@code cq} instead of the send CQ.
     *
     * @param cq the receive completion queue (not closed by the QP)
     * @return this builder
     */
    public QueuePairBuilder receiveCompletionQueue(CompletionQueue cq) {
        this.recvCq = Objects.requireNonNull(cq, "receive completion queue");
        return this;
    }

    /**
     * Receive from {@code srq} instead of the QP's own receive queue.
     *
     * @param srq the shared receive queue (not closed by the QP)
     * @return this builder
     */
    public QueuePairBuilder sharedReceiveQueue(SharedReceiveQueue srq) {
        this.srq = srq;
        return this;
    }

    /**
     * Queue sizes.
     *
     * @param capabilities what the QP is created with
     * @return this builder
     */
    public QueuePairBuilder capabilities(QpCapabilities capabilities) {
        this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
        return this;
    }

    /**
     * Every send completes into the CQ, not only those flagged SIGNALED.
     *
     * @param signalAll true for {@code sq_sig_all}
     * @return this builder
     */
    public QueuePairBuilder signalAll(boolean signalAll) {
        this.signalAll = signalAll;
        return this;
    }

    /**
     * The port the QP uses (default 1).
     *
     * @param port 1..255
     * @return this builder
     */
    public QueuePairBuilder port(int port) {
        this.port = AddressVector.range("port", port, 1, 255);
        return this;
    }

    /**
     * Which GID of the port to use on RoCE (default {@link GidChooser#preferRoceV2Ipv4()}).
     * An index that is not populated fails {@link #build()} with the list of those that are.
     *
     * @param chooser the GID choice
     * @return this builder
     */
    public QueuePairBuilder gid(GidChooser chooser) {
        this.gidChooser = Objects.requireNonNull(chooser, "GID chooser");
        return this;
    }

    /**
     * The largest path MTU this side offers (default: the port's active MTU); connect uses the
     * smaller of both sides' values.
     *
     * @param mtu the MTU
     * @return this builder
     */
    public QueuePairBuilder pathMtu(PathMtu mtu) {
        this.mtu = Objects.requireNonNull(mtu, "path MTU");
        return this;
    }

    /**
     * The PSN of our first packet (default: random).
     *
     * @param psn 24 bits
     * @return this builder
     */
    public QueuePairBuilder psn(int psn) {
        this.psn = AddressVector.range("PSN", psn, 0, 0xFFFFFF);
        return this;
    }

    /**
     * What the peer may do to our memory through this QP (RC: write, read, atomic; UC: write).
     * Region-only flags such as {@link Access#LOCAL_WRITE} are accepted and left to the memory
     * region, so {@link Access#ALL_REMOTE} may be passed as it is.
     *
     * @param access the flags
     * @return this builder
     * @throws IllegalArgumentException on a UD QP, which has no remote access
     */
    public QueuePairBuilder remoteAccess(Set<Access> access) {
        if (type == QpType.UD && !access.isEmpty()) {
            throw new IllegalArgumentException("a UD QP takes no remote access flags");
        }
        this.remoteAccess = access.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(access));
        return this;
    }

    /**
     * The Q_Key incoming datagrams must carry (UD only; default {@value #DEFAULT_QKEY}).
     *
     * @param qkey the Q_Key
     * @return this builder
     */
    public QueuePairBuilder qkey(int qkey) {
        this.qkey = qkey;
        return this;
    }

    /**
     * RC: the RTS timers and the reads/atomics we may have outstanding ({@link RtsAttributes}
     * defaults otherwise). The send PSN is ours ({@link #psn(int)}), any PSN set here is ignored.
     *
     * @param timeout     ACK timeout code (0..31)
     * @param retryCount  retransmissions (0..7)
     * @param rnrRetry    RNR retries (0..7, 7 = forever)
     * @param maxRdAtomic our outstanding reads/atomics
     * @return this builder
     */
    public QueuePairBuilder timers(int timeout, int retryCount, int rnrRetry, int maxRdAtomic) {
        RtsAttributes.builder().timeout(timeout).retryCount(retryCount).rnrRetry(rnrRetry).maxRdAtomic(maxRdAtomic);
        this.timers = new int[] {timeout, retryCount, rnrRetry, maxRdAtomic};
        return this;
    }

    /**
     * RC: the responder side of RTR: reads/atomics from the peer that may be outstanding, and the
     * RNR NAK timer code.
     *
     * @param maxDestRdAtomic incoming reads/atomics at once
     * @param minRnrTimer     RNR NAK timer code (0..31)
     * @return this builder
     */
    public QueuePairBuilder responder(int maxDestRdAtomic, int minRnrTimer) {
        this.maxDestRdAtomic = AddressVector.range("max destination RD atomic", maxDestRdAtomic, 0, 255);
        this.minRnrTimer = AddressVector.range("min RNR timer", minRnrTimer, 0, 31);
        return this;
    }

    /**
     * Queries the port, chooses the GID and creates the QP (ibv_create_qp).
     *
     * @return the QP in RESET, owned by the returned object until it is connected
     * @throws VerbsException when the port or GID index is wrong, or the QP cannot be created
     */
    public PreparedQueuePair build() {
        PortAttributes portAttributes = pd.context().queryPort(port);
        GidEntry gid = portAttributes.linkLayer() == PortAttributes.LINK_LAYER_ETHERNET
                ? pd.context().chooseGid(port, gidChooser) : null;
        PathMtu offered = mtu != null ? mtu : PathMtu.of(portAttributes.activeMtu());
        if (offered == null) {
            offered = PathMtu.MTU_1024;
        }
        QpInitAttributes.Builder init = QpInitAttributes.builder(type, sendCq, recvCq).capabilities(capabilities)
                .signalAll(signalAll);
        if (srq != null) {
            init.sharedReceiveQueue(srq);
        }
        int ourPsn = psn != null ? psn : ThreadLocalRandom.current().nextInt(1 << 24);
        RtsAttributes.Builder rts = RtsAttributes.builder().sqPsn(ourPsn);
        if (timers != null && type == QpType.RC) {
            rts.timeout(timers[0]).retryCount(timers[1]).rnrRetry(timers[2]).maxRdAtomic(timers[3]);
        }
        QueuePair qp = pd.createQueuePair(init.build());
        QueuePairEndpoint endpoint = new QueuePairEndpoint(qp.number(), ourPsn, gid == null ? null : gid.gid(),
                portAttributes.lid(), offered, type == QpType.UD ? qkey : 0, null);
        return new PreparedQueuePair(qp, port, gid, endpoint, remoteAccess, rts.build(),
                type == QpType.RC ? maxDestRdAtomic : null, type == QpType.RC ? minRnrTimer : null);
    }
}
