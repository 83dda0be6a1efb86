package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Compare-and-swap and fetch-and-add on the rig's device, old values and new ones checked. */
@Tag("rdma")
class AtomicRigTest {

    @Test
    void compareAndSwapThenFetchAndAdd() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            assertTrue(l.a.deviceAttributes().supportsAtomics(), "rxe supports atomics");
            long target = 1024; // 8-byte aligned
            l.bufB.set(ValueLayout.JAVA_LONG, target, 5L);
            PreparedSend atomic = l.track(l.a.prepareSend(1, 1));
            atomic.opcode(0, SendOpcode.ATOMIC_CMP_AND_SWP).remote(0, l.mrB.address() + target, l.mrB.rkey())
                    .compareAdd(0, 5L).swap(0, 9L).sge(0, 0, l.mrA, 0, 8)
                    .flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(0, 1);
            atomic.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "compare-and-swap");
            assertEquals(WcOpcode.COMP_SWAP, wc.opcodeEnum(0));
            assertEquals(5L, l.bufA.get(ValueLayout.JAVA_LONG, 0), "old value returned");
            assertEquals(9L, l.bufB.get(ValueLayout.JAVA_LONG, target), "swapped");

            // a compare that does not match leaves the target alone and still returns the old value
            atomic.compareAdd(0, 5L).swap(0, 77L).wrId(0, 2).post();
            QpLoopback.awaitSuccess(l.cqA, wc, "failing compare-and-swap");
            assertEquals(9L, l.bufA.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(9L, l.bufB.get(ValueLayout.JAVA_LONG, target));

            atomic.opcode(0, SendOpcode.ATOMIC_FETCH_AND_ADD).compareAdd(0, 3L).sge(0, 0, l.mrA, 8, 8).wrId(0, 3);
            atomic.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "fetch-and-add");
            assertEquals(WcOpcode.FETCH_ADD, wc.opcodeEnum(0));
            assertEquals(9L, l.bufA.get(ValueLayout.JAVA_LONG, 8), "old value returned");
            assertEquals(12L, l.bufB.get(ValueLayout.JAVA_LONG, target), "added");
        }
    }
}
