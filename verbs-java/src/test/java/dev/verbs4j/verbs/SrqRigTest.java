package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** One shared receive queue feeding two RC QPs on the rig's device. */
@Tag("rdma")
class SrqRigTest {

    @Test
    void twoQueuePairsReceiveFromOneSrq() {
        try (QpLoopback l = QpLoopback.resourcesOnly();
             WorkCompletions wc = new WorkCompletions(1)) {
            SharedReceiveQueue srq = l.track(l.pd.createSharedReceiveQueue(8, 1));
            assertTrue(srq.maxWorkRequests() >= 8);
            srq.armLimit(2);
            assertEquals(2, srq.query().limit());

            QueuePair a1 = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA).build()));
            QueuePair a2 = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA).build()));
            QpInitAttributes withSrq = QpInitAttributes.builder(QpType.RC, l.cqB).sharedReceiveQueue(srq).build();
            QueuePair b1 = l.track(l.pd.createQueuePair(withSrq));
            QueuePair b2 = l.track(l.pd.createQueuePair(withSrq));
            assertThrows(IllegalStateException.class, () -> b1.prepareReceive(1, 1), "receives go to the SRQ");
            assertThrows(IllegalStateException.class, srq::close, "QPs still use the SRQ");
            l.connect(a1, 1, b1, 11);
            l.connect(b1, 11, a1, 1);
            l.connect(a2, 2, b2, 22);
            l.connect(b2, 22, a2, 2);

            PreparedReceive recv = l.track(srq.prepareReceive(4, 1));
            for (int i = 0; i < 4; i++) {
                recv.wrId(i, 100 + i).sge(i, 0, l.mrB, i * 64L, 64);
            }
            recv.post();
            l.bufA.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x11);
            l.bufA.set(ValueLayout.JAVA_BYTE, 1, (byte) 0x22);
            l.track(a1.prepareSend(1, 1)).sge(0, 0, l.mrA, 0, 1).post();
            l.track(a2.prepareSend(1, 1)).sge(0, 0, l.mrA, 1, 1).post();

            Map<Integer, Byte> receivedByQp = new HashMap<>();
            for (int i = 0; i < 2; i++) {
                QpLoopback.awaitSuccess(l.cqB, wc, "receive " + i + " through the SRQ");
                long slot = wc.wrId(0) - 100;
                receivedByQp.put(wc.qpNumber(0), l.bufB.get(ValueLayout.JAVA_BYTE, slot * 64));
            }
            assertEquals(Map.of(b1.number(), (byte) 0x11, b2.number(), (byte) 0x22), receivedByQp);
        }
    }

    @Test
    void closedSrqRefusesUse() {
        try (QpLoopback l = QpLoopback.resourcesOnly()) {
            SharedReceiveQueue srq = l.pd.createSharedReceiveQueue(4, 1);
            PreparedReceive recv = srq.prepareReceive(1, 1);
            recv.sge(0, 0, l.mrB, 0, 16);
            srq.close();
            assertThrows(IllegalStateException.class, srq::query);
            assertThrows(IllegalStateException.class, () -> srq.armLimit(1));
            assertThrows(IllegalStateException.class, recv::post);
            recv.close();
            assertThrows(IllegalArgumentException.class, () -> l.pd.createSharedReceiveQueue(0, 1));
        }
    }
}
