package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The endpoint value's fixed byte form, on the host. */
class QueuePairEndpointTest {
    private static final byte[] GID = new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 77, 0, 1};

    @Test
    void roundTripsWithAndWithoutGidAndRegion() {
        QueuePairEndpoint full = new QueuePairEndpoint(0xABCDEF, 0x123456, GID, 0, PathMtu.MTU_4096, 0,
                new RemoteRegion(0x7f00_1234_5678L, 0xCAFE, 1 << 20));
        byte[] bytes = full.toBytes();
        assertEquals(QueuePairEndpoint.BYTES, bytes.length);
        assertEquals(full, QueuePairEndpoint.fromBytes(bytes));
        assertEquals('V', bytes[0]);
        assertEquals(QueuePairEndpoint.VERSION, bytes[4]);

        QueuePairEndpoint ib = new QueuePairEndpoint(7, 0, null, 0x1234, PathMtu.MTU_256, 0x11111111, null);
        QueuePairEndpoint back = QueuePairEndpoint.fromBytes(ib.toBytes());
        assertEquals(ib, back);
        assertNull(back.gid());
        assertNull(back.region());
        assertEquals(0x11111111, back.qkey());
    }

    @Test
    void refusesForeignOrNewerBytes() {
        byte[] bytes = new QueuePairEndpoint(1, 2, GID, 0, PathMtu.MTU_1024, 0, null).toBytes();
        IllegalArgumentException shortInput = assertThrows(IllegalArgumentException.class,
                () -> QueuePairEndpoint.fromBytes(new byte[10]));
        assertTrue(shortInput.getMessage().contains("64 bytes"), shortInput.getMessage());
        byte[] padded = java.util.Arrays.copyOf(bytes, 196);   // as rdma_cm delivers private data
        assertEquals(QueuePairEndpoint.fromBytes(bytes), QueuePairEndpoint.fromBytes(padded));
        byte[] newer = bytes.clone();
        newer[4] = 2;
        IllegalArgumentException version = assertThrows(IllegalArgumentException.class,
                () -> QueuePairEndpoint.fromBytes(newer));
        assertTrue(version.getMessage().contains("version 2"), version.getMessage());
        byte[] foreign = bytes.clone();
        foreign[0] = 'X';
        assertThrows(IllegalArgumentException.class, () -> QueuePairEndpoint.fromBytes(foreign));
        byte[] badMtu = bytes.clone();
        badMtu[6] = 9;
        assertThrows(IllegalArgumentException.class, () -> QueuePairEndpoint.fromBytes(badMtu));
    }

    @Test
    void checksRangesAndCopiesTheGid() {
        assertThrows(IllegalArgumentException.class,
                () -> new QueuePairEndpoint(1 << 24, 0, null, 0, PathMtu.MTU_1024, 0, null));
        assertThrows(IllegalArgumentException.class,
                () -> new QueuePairEndpoint(1, 0, new byte[4], 0, PathMtu.MTU_1024, 0, null));
        byte[] gid = GID.clone();
        QueuePairEndpoint e = new QueuePairEndpoint(1, 0, gid, 0, PathMtu.MTU_1024, 0, null);
        gid[15] = 9;
        assertEquals(1, e.gid()[15]);
        RemoteRegion r = new RemoteRegion(1000, 1, 100);
        assertEquals(1010, r.addressAt(10, 90));
        assertThrows(IndexOutOfBoundsException.class, () -> r.addressAt(10, 91));
        assertEquals(PathMtu.MTU_2048, PathMtu.of(4));
        assertNull(PathMtu.of(0));
    }
}
