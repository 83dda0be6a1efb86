package dev.verbs4j.benchmarks.jmh;

import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PathMtu;
import dev.verbs4j.verbs.PreparedQueuePair;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpCapabilities;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.QueuePairBuilder;
import java.lang.foreign.Arena;

/** Two RC QPs on one device, connected to each other: an RDMA path with no second process. */
final class LoopbackPair implements AutoCloseable {
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
        QueuePairBuilder builder = pd.queuePairBuilder(QpType.RC, cq).capabilities(new QpCapabilities(depth, depth, 1, 1, 0))
                .remoteAccess(Access.ALL_REMOTE).pathMtu(PathMtu.MTU_1024).psn(0);
        try (PreparedQueuePair a = builder.build(); PreparedQueuePair b = builder.build()) {
            initiator = a.connect(b.endpoint());
            target = b.connect(a.endpoint());
        }
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
