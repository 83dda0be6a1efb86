package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** UD queue pairs on the rig's device: datagrams addressed by an address handle, GRH checked. */
@Tag("rdma")
class QpUdRigTest {

    /** The 40 bytes in front of a UD payload: for RoCE v2 over IPv4 the last 20 are the IPv4 header. */
    static void assertGrh(MemorySegment grh, GidEntry gid) {
        byte[] g = gid.gid();
        if (gid.isIpv4()) {
            assertEquals(0x45, grh.get(ValueLayout.JAVA_BYTE, 20) & 0xff, "IPv4 version/IHL");
            assertArrayEquals(java.util.Arrays.copyOfRange(g, 12, 16), bytes(grh, 32, 4), "source IPv4 address");
            assertArrayEquals(java.util.Arrays.copyOfRange(g, 12, 16), bytes(grh, 36, 4), "destination IPv4 address");
        } else {
            assertEquals(6, (grh.get(ValueLayout.JAVA_BYTE, 0) & 0xf0) >> 4, "IPv6 version");
            assertArrayEquals(g, bytes(grh, 8, 16), "source GID");
            assertArrayEquals(g, bytes(grh, 24, 16), "destination GID");
        }
    }

    static byte[] bytes(MemorySegment s, long offset, int length) {
        return s.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void datagramArrivesAfterItsGrh() {
        try (QpLoopback l = QpLoopback.connected(QpType.UD, QpCapabilities.small(), false);
             WorkCompletions wc = new WorkCompletions(1)) {
            QpAttributes qa = l.b.query();
            assertEquals(QpState.RTS, qa.state());
            assertEquals(QpLoopback.QKEY, qa.qkey());

            byte[] payload = "datagram".getBytes(StandardCharsets.US_ASCII);
            MemorySegment.copy(payload, 0, l.bufA, ValueLayout.JAVA_BYTE, 0, payload.length);
            AddressHandle ah = l.track(l.pd.createAddressHandle(l.addressOfSelf()));
            PreparedReceive recv = l.track(l.b.prepareReceive(1, 1));
            recv.wrId(1).sge(0, 0, l.mrB, 0, AddressHandle.GRH_BYTES + 512).post();
            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            send.opcode(0, SendOpcode.SEND_WITH_IMM).immediate(0, 42).ud(0, ah, l.b.number(), QpLoopback.QKEY)
                    .sge(0, 0, l.mrA, 0, payload.length).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(2);
            send.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the UD send");
            QpLoopback.awaitSuccess(l.cqB, wc, "the UD receive");
            assertEquals(AddressHandle.GRH_BYTES + payload.length, wc.byteLength(0));
            assertTrue(wc.hasGrh(0), "RoCE datagrams carry a GRH");
            assertEquals(l.a.number(), wc.sourceQp(0));
            assertEquals(42, wc.immediateData(0));
            assertGrh(l.bufB, l.gid);
            assertArrayEquals(payload, bytes(l.bufB, AddressHandle.GRH_BYTES, payload.length));
        }
    }

    @Test
    void udRefusesConnectedOperations() {
        try (QpLoopback l = QpLoopback.connected(QpType.UD, QpCapabilities.small(), false)) {
            PreparedSend send = l.track(l.a.prepareSend(1, 1)).sge(0, 0, l.mrA, 0, 4);
            assertThrows(IllegalArgumentException.class, () -> send.opcode(0, SendOpcode.RDMA_WRITE));
            assertThrows(IllegalArgumentException.class, () -> send.remote(0, 0, 0));
            IllegalStateException noDestination = assertThrows(IllegalStateException.class, send::post);
            assertTrue(noDestination.getMessage().contains("ud("), noDestination.getMessage());
        }
    }
}
