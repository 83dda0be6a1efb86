package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Address handles: created from an address vector, from a received datagram, and closed. */
@Tag("rdma")
class AddressHandleRigTest {

    @Test
    void replyToTheSenderOfADatagram() {
        try (QpLoopback l = QpLoopback.connected(QpType.UD, QpCapabilities.small(), false);
             WorkCompletions wc = new WorkCompletions(1)) {
            AddressHandle toB = l.track(l.pd.createAddressHandle(l.addressOfSelf()));
            PreparedReceive recvB = l.track(l.b.prepareReceive(1, 1));
            recvB.wrId(1).sge(0, 0, l.mrB, 0, 1024).post();
            PreparedReceive recvA = l.track(l.a.prepareReceive(1, 1));
            recvA.wrId(2).sge(0, 0, l.mrA, 1024, 1024).post();
            l.bufA.set(ValueLayout.JAVA_INT, 0, 0x01020304);
            PreparedSend ping = l.track(l.a.prepareSend(1, 1));
            ping.ud(0, toB, l.b.number(), QpLoopback.QKEY).sge(0, 0, l.mrA, 0, 4).post();
            QpLoopback.awaitSuccess(l.cqB, wc, "the ping");

            MemorySegment grh = l.bufB.asSlice(0, AddressHandle.GRH_BYTES);
            AddressHandle reply = l.track(l.pd.createAddressHandle(wc, 0, grh, QpLoopback.PORT));
            assertNull(reply.address());
            int sender = wc.sourceQp(0);
            assertEquals(l.a.number(), sender);
            l.bufB.set(ValueLayout.JAVA_INT, 2048, 0x0a0b0c0d);
            PreparedSend pong = l.track(l.b.prepareSend(1, 1));
            pong.ud(0, reply, sender, QpLoopback.QKEY).sge(0, 0, l.mrB, 2048, 4).post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the pong");
            assertEquals(AddressHandle.GRH_BYTES + 4, wc.byteLength(0));
            assertEquals(0x0a0b0c0d, l.bufA.get(ValueLayout.JAVA_INT, 1024 + AddressHandle.GRH_BYTES));
            QpUdRigTest.assertGrh(l.bufA.asSlice(1024), l.gid);
        }
    }

    @Test
    void closedHandleCannotBePosted() {
        try (QpLoopback l = QpLoopback.connected(QpType.UD, QpCapabilities.small(), false)) {
            AddressHandle ah = l.pd.createAddressHandle(l.addressOfSelf());
            assertArrayEquals(l.gid.gid(), ah.address().destGid());
            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            send.ud(0, ah, l.b.number(), QpLoopback.QKEY).sge(0, 0, l.mrA, 0, 4);
            ah.close();
            assertThrows(IllegalStateException.class, send::post);
            assertThrows(IllegalStateException.class, () -> send.ud(0, ah, 1, 1));
        }
    }
}
