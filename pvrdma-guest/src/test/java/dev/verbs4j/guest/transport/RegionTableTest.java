package dev.verbs4j.guest.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.guest.RemoteRegion;
import org.junit.jupiter.api.Test;

/** The TCP transport's key and bounds checks: exactly the accesses an RDMA device would refuse. */
class RegionTableTest {

    @Test
    void acceptsExactlyTheRangesInsideALiveRegion() {
        RegionTable table = new RegionTable();
        RegisteredRegion r = table.register(100);
        RemoteRegion remote = r.remote();
        assertEquals(100, table.resolve(remote.address(), remote.key(), 100).byteSize());
        assertEquals(1, table.resolve(remote.at(99), remote.key(), 1).byteSize());
        assertEquals(0, table.resolve(remote.at(100), remote.key(), 0).byteSize());
        refused(table, remote.at(99), remote.key(), 2);
        refused(table, remote.address() - 1, remote.key(), 1);
        refused(table, remote.address(), remote.key() + 1, 1);
        r.close();
        refused(table, remote.address(), remote.key(), 1);
    }

    @Test
    void remoteRegionsRoundTrip() {
        RemoteRegion r = new RemoteRegion(0x7f00_1234_5678L, 4096, 0xdeadbeef);
        assertEquals(r, RemoteRegion.fromSegment(r.toSegment()));
    }

    private static void refused(RegionTable table, long address, int key, long length) {
        ChannelException e = assertThrows(ChannelException.class, () -> table.resolve(address, key, length));
        assertEquals(ChannelError.REMOTE_ACCESS, e.error());
    }
}
