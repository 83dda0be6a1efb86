package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The data-path calls of {@link ContextOps}: the handles bound to the first provider carry all
 * calls on a one-provider machine, so the unbound poll_cq handle, which a second provider's
 * devices would use, is driven here directly with an address that matches no bound function.
 * (The unbound post handles are the ones every post went through before the bound ones existed.)
 */
@Tag("rdma")
class ContextOpsRigTest {
    private static final long NOT_THE_FIRST_PROVIDER = -2;

    @Test
    void unboundPollCqTakesRealCompletions() throws Throwable {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(4)) {
            ContextOps ops = l.ctx.ops();
            l.track(l.b.prepareReceive(1, 1)).wrId(0, 71).sge(0, 0, l.mrB, 0, 64).post();
            l.bufA.set(ValueLayout.JAVA_LONG, 0, 0x1122334455667788L);
            l.track(l.a.prepareSend(1, 1)).wrId(0, 72).sge(0, 0, l.mrA, 0, 8).flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();

            assertEquals(72, pollUnbound(l.cqA, ops, wc), "send completion through the unbound poll_cq");
            assertEquals(71, pollUnbound(l.cqB, ops, wc), "receive completion through the unbound poll_cq");
            assertEquals(0x1122334455667788L, l.bufB.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    private static long pollUnbound(CompletionQueue cq, ContextOps ops, WorkCompletions wc) throws Throwable {
        long deadline = System.nanoTime() + QpLoopback.TIMEOUT.toNanos();
        while (true) {
            int n = ContextOps.pollCq(ops.pollCq, NOT_THE_FIRST_PROVIDER, cq.pointer().address(), 1, wc.addressFor(1));
            if (wc.filled(n) == 1) { // records n, as CompletionQueue.poll does after its call
                assertTrue(wc.isSuccess(0), "status " + wc.status(0));
                return wc.wrId(0);
            }
            assertEquals(0, n);
            assertTrue(System.nanoTime() < deadline, "no completion");
        }
    }
}
