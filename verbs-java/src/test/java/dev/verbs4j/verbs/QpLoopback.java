package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Test set-up for queue-pair tests on the rig's device: two QPs on one device, connected to each
 * other through the device's RoCE v2 IPv4 GID (loopback through rxe), each with its own CQ and a
 * registered buffer. Everything is closed in reverse order of creation.
 */
final class QpLoopback implements AutoCloseable {
    /** The guest runs under emulation: generous, but never unbounded. */
    static final Duration TIMEOUT = Duration.ofSeconds(20);
    static final int PORT = 1;
    static final int PSN_A = 0x1000;
    static final int PSN_B = 0x2000;
    static final int QKEY = 0x11111111;
    static final int BUFFER_BYTES = 4096;

    final Context ctx;
    final ProtectionDomain pd;
    final GidEntry gid;
    final Arena arena = Arena.ofShared();
    final CompletionChannel channel;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final MemorySegment bufA;
    final MemorySegment bufB;
    final MemoryRegion mrA;
    final MemoryRegion mrB;
    QueuePair a;
    QueuePair b;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    private QpLoopback(boolean withChannel) {
        ctx = RdmaTestSupport.openDevice();
        toClose.add(ctx);
        gid = ctx.chooseGid(PORT, GidChooser.preferRoceV2Ipv4());
        pd = track(ctx.allocateProtectionDomain());
        channel = withChannel ? track(ctx.createCompletionChannel()) : null;
        cqA = track(withChannel ? ctx.createCompletionQueue(32, channel, 0) : ctx.createCompletionQueue(32));
        cqB = track(withChannel ? ctx.createCompletionQueue(32, channel, 0) : ctx.createCompletionQueue(32));
        bufA = arena.allocate(BUFFER_BYTES, 4096);
        bufB = arena.allocate(BUFFER_BYTES, 4096);
        mrA = track(pd.register(bufA, Access.ALL_REMOTE));
        mrB = track(pd.register(bufB, Access.ALL_REMOTE));
    }

    /** Two RC QPs in RTS, connected to each other. */
    static QpLoopback rc(QpCapabilities caps) {
        return connected(QpType.RC, caps, false);
    }

    static QpLoopback connected(QpType type, QpCapabilities caps, boolean withChannel) {
        QpLoopback l = new QpLoopback(withChannel);
        try {
            PreparedQueuePair a = l.track(l.prepare(type, l.cqA, caps).psn(PSN_A).build());
            PreparedQueuePair b = l.track(l.prepare(type, l.cqB, caps).psn(PSN_B).build());
            if (type == QpType.UD) {
                l.a = l.track(a.activate());
                l.b = l.track(b.activate());
            } else {
                l.a = l.track(a.connect(b.endpoint()));
                l.b = l.track(b.connect(a.endpoint()));
            }
            return l;
        } catch (RuntimeException | Error e) {
            l.close();
            throw e;
        }
    }

    /** The staged builder with this set-up's path MTU, remote access and Q_Key. */
    QueuePairBuilder prepare(QpType type, CompletionQueue cq, QpCapabilities caps) {
        QueuePairBuilder builder = pd.queuePairBuilder(type, cq).capabilities(caps).gid(GidChooser.index(gid.index()))
                .pathMtu(PathMtu.MTU_1024);
        return switch (type) {
            case RC -> builder.remoteAccess(Access.ALL_REMOTE);
            case UC -> builder.remoteAccess(java.util.EnumSet.of(Access.REMOTE_WRITE));
            default -> builder.qkey(QKEY);
        };
    }

    /** Only the device, PD, CQs and buffers: the test creates its own QPs (and tracks them). */
    static QpLoopback resourcesOnly() {
        return new QpLoopback(false);
    }

    <T extends AutoCloseable> T track(T resource) {
        toClose.add(resource);
        return resource;
    }

    AddressVector addressOfSelf() {
        return AddressVector.roce(gid.gid(), gid);
    }

    /** INIT → RTR → RTS for a connected QP, talking to {@code peer}. */
    void connect(QueuePair qp, int ourPsn, QueuePair peer, int peerPsn) {
        qp.toInit(InitAttributes.connected(PORT, qp.type() == QpType.RC
                ? java.util.EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC)
                : java.util.EnumSet.of(Access.REMOTE_WRITE)));
        qp.toRtr(RtrAttributes.builder().remote(addressOfSelf()).pathMtu(PathMtu.MTU_1024)
                .destQpNumber(peer.number()).rqPsn(peerPsn).build());
        qp.toRts(RtsAttributes.withSendPsn(ourPsn));
    }

    void datagram(QueuePair qp, int psn) {
        qp.toInit(InitAttributes.datagram(PORT, QKEY));
        qp.toRtr(RtrAttributes.datagram());
        qp.toRts(RtsAttributes.withSendPsn(psn));
    }

    /** Polls {@code cq} until one completion arrives (batch of capacity 1), failing after TIMEOUT. */
    static void awaitOne(CompletionQueue cq, WorkCompletions wc, String what) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() > deadline) {
                fail("no completion for " + what + " within " + TIMEOUT.toSeconds() + " s");
            }
            Thread.onSpinWait();
        }
        assertEquals(1, wc.count());
    }

    /** Like {@link #awaitOne} and also asserts success, with the status in the message. */
    static void awaitSuccess(CompletionQueue cq, WorkCompletions wc, String what) {
        awaitOne(cq, wc, what);
        if (!wc.isSuccess(0)) {
            fail(what + " completed with " + wc.statusEnum(0) + " (vendor error 0x"
                    + Integer.toHexString(wc.vendorError(0)) + ")");
        }
    }

    @Override
    public void close() {
        List<AutoCloseable> reverse = new ArrayList<>(toClose);
        Collections.reverse(reverse);
        RuntimeException first = null;
        for (AutoCloseable c : reverse) {
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) {
                    first = new IllegalStateException("closing " + c + " failed", e);
                }
            }
        }
        arena.close();
        if (first != null) {
            throw first;
        }
    }
}
