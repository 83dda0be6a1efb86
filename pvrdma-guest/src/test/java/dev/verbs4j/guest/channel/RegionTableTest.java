package dev.verbs4j.guest.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.verbs.RemoteRegion;
import org.junit.jupiter.api.Test;

/** The TCP transport's key and bounds checks: exactly the accesses an RDMA device would refuse. */
class RegionTableTest {

    @Test
    void acceptsExactlyTheRangesInsideALiveRegion() {
        RegionTable table = new RegionTable();
        RegisteredRegion r = table.register(100);
        RemoteRegion remote = r.remote();
        assertEquals(100, table.resolve(remote.address(), remote.rkey(), 100).byteSize());
        assertEquals(1, table.resolve(remote.address() + 99, remote.rkey(), 1).byteSize());
        assertEquals(0, table.resolve(remote.address() + 100, remote.rkey(), 0).byteSize());
        refused(table, remote.address() + 99, remote.rkey(), 2);
        refused(table, remote.address() - 1, remote.rkey(), 1);
        refused(table, remote.address(), remote.rkey() + 1, 1);
        r.close();
        refused(table, remote.address(), remote.rkey(), 1);
    }

    @Test
    void remoteRegionsRoundTrip() {
        RemoteRegion r = new RemoteRegion(0x7f00_1234_5678L, 0xdeadbeef, 4096);
        assertEquals(r, RemoteRegion.fromSegment(r.toSegment()));
    }

    private static void refused(RegionTable table, long address, int key, long length) {
        ChannelException e = assertThrows(ChannelException.class, () -> table.resolve(address, key, length));
        assertEquals(ChannelError.REMOTE_ACCESS, e.error());
    }
}
