package dev.verbs4j.guest.rdma;

import dev.verbs4j.loop.spi.LoopDevice;
import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.DeviceAttributes;
import dev.verbs4j.verbs.GidChooser;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PreparedQueuePair;
import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpCapabilities;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.QueuePairEndpoint;
import dev.verbs4j.verbs.WorkCompletions;
import java.lang.foreign.Arena;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verbs objects of one RDMA channel: a PD, one CQ on the loop's completion channel, one
 * registered slot per receive and per send-queue entry, and an RC queue pair staged through
 * {@link PreparedQueuePair} (its receives are posted before the peer can send). They are made
 * together, undone together when making one fails, and released children first; the
 * application's regions outlive the channel, and the last one closed takes the PD with it.
 */
final class RdmaResources {
    private static final Logger LOG = LoggerFactory.getLogger(RdmaResources.class);
    private static final Set<Access> PEER_ACCESS = Set.of(Access.REMOTE_WRITE, Access.REMOTE_READ);
    /** 7 transport retries after the local ACK timeout ({@link AckTimeout}), RNR retries without end. */
    private static final int RETRY_COUNT = AckTimeout.RETRIES, RNR_RETRY = 7;
    /** The receiver's RNR NAK delay (12: 0.64 ms) when a message finds no receive posted. */
    private static final int MIN_RNR_TIMER = 12;

    final Context context;
    /** The device port the queue pair sends from. */
    final int port;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final MemoryRegion receiveBuffers;
    final MemoryRegion sendBuffers;
    final PreparedReceive receive;
    /** Completions polled while connecting, before the loop takes the CQ over. */
    final WorkCompletions setupBatch;
    private final int readsInFlight;
    private final Arena buffers;
    private final PreparedQueuePair prepared;
    private final Set<RdmaChannelRegion> regions = ConcurrentHashMap.newKeySet();
    private QueuePair qp;
    private PreparedSend post;
    private boolean released;

    private RdmaResources(LoopDevice device, int port, int gidIndex, int slotBytes, int sendDepth, int receiveDepth,
                          int ackTimeout, List<AutoCloseable> made) {
        this.context = device.context();
        this.port = port;
        this.setupBatch = track(made, new WorkCompletions(16));
        this.pd = track(made, context.allocateProtectionDomain());
        this.cq = track(made, context.createCompletionQueue(sendDepth + receiveDepth + 4, device.events(), 0));
        this.buffers = track(made, Arena.ofShared());
        this.receiveBuffers = track(made, pd.register(buffers.allocate((long) slotBytes * receiveDepth, 4096),
                Set.of(Access.LOCAL_WRITE)));
        this.sendBuffers = track(made, pd.register(buffers.allocate((long) slotBytes * sendDepth, 4096),
                Set.of(Access.LOCAL_WRITE)));
        DeviceAttributes attributes = context.queryDevice();
        // 0 where the device takes no RDMA READ at all (QEMU's emulated PVRDMA): the channel then refuses reads
        this.readsInFlight = Math.max(0, Math.min(16, Math.min(attributes.maxQpRdAtom(), attributes.maxQpInitRdAtom())));
        this.prepared = track(made, pd.queuePairBuilder(QpType.RC, cq)
                .capabilities(new QpCapabilities(sendDepth, receiveDepth, 1, 1, 0))
                .port(port).gid(GidChooser.index(gidIndex)).psn(new SecureRandom().nextInt(1 << 24))
                .remoteAccess(PEER_ACCESS)
                .timers(ackTimeout, RETRY_COUNT, RNR_RETRY, readsInFlight).responder(readsInFlight, MIN_RNR_TIMER)
                .build());
        this.receive = track(made, prepared.prepareReceive(1, 1));
    }

    /** Makes them all, or undoes what it made and throws. */
    static RdmaResources create(LoopDevice device, int port, int gidIndex, int slotBytes, int sendDepth,
                                int receiveDepth, int ackTimeout) {
        List<AutoCloseable> made = new ArrayList<>();
        try {
            return new RdmaResources(device, port, gidIndex, slotBytes, sendDepth, receiveDepth, ackTimeout, made);
        } catch (RuntimeException e) {
            for (int i = made.size() - 1; i >= 0; i--) {
                closeQuietly(made.get(i));
            }
            throw e;
        }
    }

    private static <T extends AutoCloseable> T track(List<AutoCloseable> made, T resource) {
        made.add(resource);
        return resource;
    }

    /** What the peer needs to connect to this side's QP. */
    QueuePairEndpoint endpoint() {
        return prepared.endpoint();
    }

    /** RTR and RTS towards the peer; the send side exists from here on. */
    void connect(QueuePairEndpoint peer) {
        qp = prepared.connect(peer);
        post = qp.prepareSend(1, 1);
    }

    /** The prepared send request, once connected; callers synchronize on it to post. */
    PreparedSend post() {
        return post;
    }

    synchronized RdmaChannelRegion register(long size) {
        RdmaChannelRegion region = new RdmaChannelRegion(pd, size, this::regionClosed);
        regions.add(region);
        return region;
    }

    /** RDMA READs this QP may have outstanding, and take from the peer at once (0: none). */
    int readsInFlight() {
        return readsInFlight;
    }

    boolean owns(RdmaChannelRegion region) {
        return regions.contains(region);
    }

    /**
     * A region was closed. After the channel's own objects are gone the last one takes the
     * protection domain with it. Synchronized with {@link #release}, so the PD is never closed
     * while the QP or the channel's buffers still hang from it.
     */
    private synchronized void regionClosed(RdmaChannelRegion region) {
        regions.remove(region);
        if (released) {
            closePdIfUnused();
        }
    }

    /** Prepared requests, QP, CQ, buffers, then the PD when no region holds it. Idempotent. */
    synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        if (post != null) {
            closeQuietly(post);
        }
        closeQuietly(receive);
        closeQuietly(qp != null ? qp : prepared);
        closeQuietly(cq);
        closeQuietly(sendBuffers);
        closeQuietly(receiveBuffers);
        closePdIfUnused();
        closeQuietly(buffers);
        closeQuietly(setupBatch);
    }

    private void closePdIfUnused() {
        if (regions.isEmpty()) {
            closeQuietly(pd);
        }
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("releasing {} failed: {}", c, e.getMessage());
        }
    }
}
