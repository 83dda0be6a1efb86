package dev.verbs4j.benchmarks.jmh;

import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.AddressVector;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.GidChooser;
import dev.verbs4j.verbs.GidEntry;
import dev.verbs4j.verbs.InitAttributes;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PathMtu;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpCapabilities;
import dev.verbs4j.verbs.QpInitAttributes;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.RtrAttributes;
import dev.verbs4j.verbs.RtsAttributes;
import java.lang.foreign.Arena;
import java.util.EnumSet;
import java.util.Set;

/** Two RC QPs on one device, connected to each other: an RDMA path with no second process. */
final class LoopbackPair implements AutoCloseable {
    private static final int PORT = 1;
    private static final Set<Access> REMOTE = EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);

    final Context context;
    final ProtectionDomain pd;
    final Arena arena;
    final MemoryRegion mr;
    final CompletionQueue cq;
    final QueuePair initiator;
    final QueuePair target;

    LoopbackPair(int bufferBytes, int depth) {
        context = BenchmarkDevice.open();
        pd = context.allocateProtectionDomain();
        arena = Arena.ofShared();
        mr = pd.register(arena.allocate(bufferBytes, 4096), Access.ALL_REMOTE);
        cq = context.createCompletionQueue(2 * depth + 2);
        QpInitAttributes init = QpInitAttributes.builder(QpType.RC, cq)
                .capabilities(new QpCapabilities(depth, depth, 1, 1, 0)).build();
        initiator = pd.createQueuePair(init);
        target = pd.createQueuePair(init);
        GidEntry gid = context.chooseGid(PORT, GidChooser.preferRoceV2Ipv4());
        connect(initiator, target.number(), gid);
        connect(target, initiator.number(), gid);
    }

    private static void connect(QueuePair qp, int peer, GidEntry gid) {
        qp.toInit(InitAttributes.connected(PORT, REMOTE));
        qp.toRtr(RtrAttributes.builder().remote(AddressVector.roce(gid.gid(), gid)).pathMtu(PathMtu.MTU_1024)
                .destQpNumber(peer).rqPsn(0).build());
        qp.toRts(RtsAttributes.withSendPsn(0));
    }

    @Override
    public void close() {
        initiator.close();
        target.close();
        cq.close();
        mr.close();
        arena.close();
        pd.close();
        context.close();
    }
}
