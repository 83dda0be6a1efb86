package dev.verbs4j.benchmarks.perf;

import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.DeviceAttributes;
import dev.verbs4j.verbs.GidChooser;
import dev.verbs4j.verbs.GidEntry;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PathMtu;
import dev.verbs4j.verbs.PortAttributes;
import dev.verbs4j.verbs.PreparedQueuePair;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpCapabilities;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.QueuePairEndpoint;
import dev.verbs4j.verbs.Verbs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Set;

/**
 * Everything one side of a perf run owns: device, PD, one registered buffer, the CQs (optionally
 * with a completion channel) and one RC QP, connected to the peer's. As in perftest, the send
 * tests get a send CQ of tx-depth entries and a receive CQ of rx-depth entries; the other tests
 * have one CQ for both.
 *
 * <p>The QP is built by verbs-java's {@link PreparedQueuePair} with perftest's RC values (ACK
 * timeout 14, 7 retries, 7 RNR retries, RNR timer 12, the device's limit of outstanding reads);
 * only the exchange of endpoints is this benchmark's own ({@link OutOfBand}, {@link Endpoint}).
 *
 * <p>The buffer has two halves: {@link #SOURCE} holds what we send or write, {@link #incoming()}
 * is what the peer writes into, reads from, or adds to, and where our receives land.
 */
final class PerfSession implements AutoCloseable {
    static final long SOURCE = 0;
    /** What the peer may do to our buffer through the QP. */
    private static final Set<Access> REMOTE = EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);
    /** perftest's RC timers: ACK timeout code, retransmissions, RNR retries, RNR NAK timer code. */
    private static final int ACK_TIMEOUT = 14;
    private static final int RETRY_COUNT = 7;
    private static final int RNR_RETRY = 7;
    private static final int MIN_RNR_TIMER = 12;
    /** Page-aligned halves keep the two directions of a ping-pong out of each other's cache lines. */
    private static final long ALIGN = 4096;

    final PerfOptions options;
    final Context context;
    final GidEntry gid;
    final PortAttributes port;
    final DeviceAttributes device;
    final ProtectionDomain pd;
    final Arena arena;
    final MemorySegment buffer;
    final MemoryRegion mr;
    final CompletionChannel channel;
    /** Send completions; for tests without receives, the only CQ. */
    final CompletionQueue sendCq;
    /** Receive completions: its own CQ for the send tests, otherwise {@link #sendCq}. */
    final CompletionQueue recvCq;
    /** The QP in RESET until {@link #connect(Endpoint)}; it owns the QP until then. */
    private final PreparedQueuePair prepared;
    /** The connected QP, null before {@link #connect(Endpoint)}. */
    QueuePair qp;
    final long half;
    private Endpoint remote;

    PerfSession(PerfOptions options) {
        this.options = options;
        this.context = options.device() != null ? Verbs.open(options.device())
                : Verbs.openFirst().orElseThrow(() -> new IllegalStateException(
                        "no RDMA device here; run inside the soft-RoCE rig (ci/rig run bin/verbs4j perf ...)"));
        this.port = context.queryPort(options.ibPort());
        this.device = context.queryDevice();
        this.pd = context.allocateProtectionDomain();
        this.half = (Math.max(options.maxSize(), PerfTest.ATOMIC_SIZE) + ALIGN - 1) / ALIGN * ALIGN;
        this.arena = Arena.ofShared();
        this.buffer = arena.allocate(2 * half, ALIGN);
        this.mr = pd.register(buffer, Access.ALL_REMOTE);
        this.channel = options.events() ? context.createCompletionChannel() : null;
        boolean receives = options.test().usesReceives();
        this.sendCq = createCq(receives ? options.txDepth() : options.txDepth() + options.rxDepth() + 1);
        this.recvCq = receives ? createCq(options.rxDepth()) : sendCq;
        int inline = Math.max(0, options.inlineSize());
        QpCapabilities caps = new QpCapabilities(options.txDepth(), receives ? options.rxDepth() : 1, 1, 1, inline);
        int reads = outstandingReads();
        this.prepared = pd.queuePairBuilder(QpType.RC, sendCq).receiveCompletionQueue(recvCq).capabilities(caps)
                .port(options.ibPort())
                .gid(options.gidIndex() >= 0 ? GidChooser.index(options.gidIndex()) : GidChooser.preferRoceV2Ipv4())
                .psn(new SecureRandom().nextInt(1 << 24)).remoteAccess(REMOTE)
                .timers(ACK_TIMEOUT, RETRY_COUNT, RNR_RETRY, reads).responder(reads, MIN_RNR_TIMER).build();
        this.gid = prepared.localGid();
        if (gid == null) {
            close();
            throw new IllegalStateException("port " + options.ibPort() + " is InfiniBand; perf runs on RoCE ports");
        }
    }

    private CompletionQueue createCq(int entries) {
        return channel != null ? context.createCompletionQueue(entries, channel, 0)
                : context.createCompletionQueue(entries);
    }

    /** Where the peer's data lands, and what it reads from or adds to. */
    long incoming() {
        return half;
    }

    /** RDMA reads and atomics in flight per direction: the device's limit, as perftest's "Outstand reads". */
    int outstandingReads() {
        return Math.max(1, Math.min(device.maxQpRdAtom(), device.maxQpInitRdAtom()));
    }

    Endpoint localEndpoint() {
        QueuePairEndpoint ours = prepared.endpoint();
        return new Endpoint(port.lid(), ours.qpNumber(), ours.psn(), mr.rkey(), mr.address() + incoming(), gid.gid(),
                ours.mtu().value());
    }

    /** INIT → RTR → RTS against the peer, with the smaller of the two ports' MTUs. */
    void connect(Endpoint peer) {
        this.remote = peer;
        this.qp = prepared.connect(new QueuePairEndpoint(peer.qpNumber(), peer.psn(), peer.gid(), peer.lid(),
                pathMtu(peer.mtu()), 0, null));
    }

    Endpoint remote() {
        return remote;
    }

    static PathMtu pathMtu(int ibvMtu) {
        PathMtu m = PathMtu.of(ibvMtu);
        if (m == null) {
            throw new IllegalArgumentException("no path MTU with IBV_MTU value " + ibvMtu);
        }
        return m;
    }

    /** Zeroes both halves, so a marker byte left by an earlier size cannot be mistaken for a new one. */
    void clearBuffer() {
        buffer.fill((byte) 0);
    }

    @Override
    public void close() {
        prepared.close(); // destroys the QP only if it never connected
        if (qp != null) {
            qp.close();
        }
        if (recvCq != sendCq) {
            recvCq.close();
        }
        sendCq.close();
        if (channel != null) {
            channel.close();
        }
        mr.close();
        arena.close();
        pd.close();
        context.close();
    }
}
