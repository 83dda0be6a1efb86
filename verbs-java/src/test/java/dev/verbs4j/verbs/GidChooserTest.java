package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class GidChooserTest {
    private static GidEntry linkLocal(int index, GidType type) {
        byte[] gid = new byte[16];
        gid[0] = (byte) 0xfe;
        gid[1] = (byte) 0x80;
        gid[15] = 2;
        return new GidEntry(1, index, gid, type, "eth0");
    }

    private static GidEntry ipv4(int index, GidType type) {
        byte[] gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 77, 0, 2};
        return new GidEntry(1, index, gid, type, "eth0");
    }

    @Test
    void prefersRoceV2Ipv4ThenAnyRoceV2() {
        List<GidEntry> table = List.of(linkLocal(0, GidType.ROCE_V1), linkLocal(1, GidType.ROCE_V2),
                ipv4(2, GidType.ROCE_V1), ipv4(3, GidType.ROCE_V2));
        assertEquals(3, GidChooser.preferRoceV2Ipv4().choose("dev", 1, table).index());
        assertEquals(1, GidChooser.preferRoceV2Ipv4().choose("dev", 1, table.subList(0, 3)).index());
    }

    /** PVRDMA's device version 17 lists a link-local and an IPv4-mapped GID, both RoCE v1. */
    @Test
    void onARoceV1OnlyPortTheIpv4GidRatherThanTheLinkLocalOne() {
        List<GidEntry> table = List.of(linkLocal(0, GidType.ROCE_V1), ipv4(1, GidType.ROCE_V1));
        assertEquals(1, GidChooser.preferRoceV2Ipv4().choose("vmw_pvrdma0", 1, table).index());
        assertEquals(0, GidChooser.preferRoceV2Ipv4().choose("dev", 1, table.subList(0, 1)).index());
        assertEquals(0, GidChooser.index(0).choose("vmw_pvrdma0", 1, table).index());
    }
}
