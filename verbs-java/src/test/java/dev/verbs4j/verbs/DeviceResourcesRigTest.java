package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.rig.ResourceShow;
import dev.verbs4j.rig.RigEnvironment;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The control path on a real device: open, query, GIDs, PD, MR, CQ, channel, and clean teardown. */
@Tag("rdma")
class DeviceResourcesRigTest {

    @Test
    void opensQueriesAndReleasesEverything() {
        String name = RigEnvironment.current().device();
        Map<String, Integer> before = ResourceShow.counts(name);
        try (Context ctx = RdmaTestSupport.openDevice()) {
            DeviceAttributes dev = ctx.queryDevice();
            assertTrue(dev.maxQp() > 0 && dev.maxCqe() > 0 && dev.maxMrSize() != 0, dev.toString());
            assertEquals(1, dev.physicalPortCount());

            PortAttributes port = ctx.queryPort(1);
            assertTrue(port.isActive(), "port 1 is " + port.stateName());
            assertEquals(PortAttributes.LINK_LAYER_ETHERNET, port.linkLayer());
            assertTrue(PortAttributes.mtuBytes(port.activeMtu()) >= 256);

            List<GidEntry> gids = ctx.gidTable(1);
            GidEntry gid = ctx.chooseGid(1, GidChooser.preferRoceV2Ipv4());
            assertEquals(GidType.ROCE_V2, gid.type());
            assertTrue(gid.isIpv4(), gid.toString());
            assertEquals(RigEnvironment.current().address(), gid.address().getHostAddress());
            String expectedIndex = System.getenv("RIG_GID_INDEX");
            if (expectedIndex != null) {
                assertEquals(Integer.parseInt(expectedIndex), gid.index());
            }
            System.out.printf("device %s fw %s: port 1 %s mtu %d, %d GIDs, chosen %s%n", name,
                    dev.firmwareVersion(), port.stateName(), PortAttributes.mtuBytes(port.activeMtu()), gids.size(), gid);

            try (ProtectionDomain pd = ctx.allocateProtectionDomain();
                 Arena arena = Arena.ofShared()) {
                MemorySegment buffer = arena.allocate(1 << 20, 4096);
                try (MemoryRegion mr = pd.register(buffer, Access.ALL_REMOTE);
                     CompletionChannel channel = ctx.createCompletionChannel();
                     CompletionQueue cq = ctx.createCompletionQueue(16, channel, 0);
                     WorkCompletions wcs = new WorkCompletions(8)) {
                    assertNotEquals(0, mr.lkey());
                    assertEquals(buffer.address(), mr.address());
                    assertEquals(1 << 20, mr.length());
                    assertTrue(cq.capacity() >= 16);
                    assertEquals(0, cq.poll(wcs), "a new CQ is empty");
                    cq.requestNotification(false);
                    assertEquals(null, channel.await(Duration.ofMillis(200)), "no completion, no event");
                    System.out.printf("registered 1 MiB: %s%n", mr);
                    Map<String, Integer> during = ResourceShow.counts(name);
                    assertEquals(before.get("mr") + 1, during.get("mr"));
                    assertEquals(before.get("cq") + 1, during.get("cq"));
                    assertEquals(before.get("pd") + 1, during.get("pd"));
                }
            }
        }
        assertEquals(before, ResourceShow.counts(name), "rdma resource show back to where it was");
    }

    @Test
    void closedObjectsRefuseUseAndParentsRefuseToCloseFirst() {
        Context ctx = RdmaTestSupport.openDevice();
        ProtectionDomain pd = ctx.allocateProtectionDomain();
        CompletionQueue cq = ctx.createCompletionQueue(4);
        IllegalStateException busy = assertThrows(IllegalStateException.class, ctx::close);
        assertTrue(busy.getMessage().contains("2 object(s)"), busy.getMessage());
        assertFalse(ctx.isClosed());

        try (Arena arena = Arena.ofConfined(); WorkCompletions wcs = new WorkCompletions(1)) {
            MemoryRegion mr = pd.register(arena.allocate(4096), java.util.Set.of(Access.LOCAL_WRITE));
            mr.close();
            mr.close(); // idempotent
            assertThrows(IllegalStateException.class, mr::lkey);
            assertThrows(IllegalStateException.class, mr::rkey);
            cq.close();
            assertThrows(IllegalStateException.class, () -> cq.poll(wcs));
            assertThrows(IllegalStateException.class, () -> cq.requestNotification(false));
            pd.close();
            assertThrows(IllegalStateException.class, () -> pd.register(arena.allocate(64), java.util.Set.of()));
        }
        ctx.close();
        assertThrows(IllegalStateException.class, ctx::queryDevice);
        assertThrows(IllegalStateException.class, ctx::allocateProtectionDomain);
    }

    @Test
    void explicitGidIndexIsCheckedAgainstTheTable() {
        try (Context ctx = RdmaTestSupport.openDevice()) {
            VerbsException e = assertThrows(VerbsException.class, () -> ctx.chooseGid(1, GidChooser.index(200)));
            assertTrue(e.getMessage().contains("GID index 200 is not populated"), e.getMessage());
            assertTrue(e.getMessage().contains("RoCE v2"), "lists what is there: " + e.getMessage());
        }
    }

    @Test
    void unknownDeviceNameListsTheDevicesThatExist() {
        RdmaTestSupport.openDevice().close();
        VerbsException e = assertThrows(VerbsException.class, () -> Verbs.open("mlx5_99"));
        assertTrue(e.getMessage().contains(RigEnvironment.current().device()), e.getMessage());
    }
}
