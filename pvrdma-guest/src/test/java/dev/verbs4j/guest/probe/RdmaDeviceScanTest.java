package dev.verbs4j.guest.probe;

import dev.verbs4j.guest.doctor.RecordedTrees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.verbs.GidEntry;
import dev.verbs4j.verbs.GidType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RdmaDeviceScanTest {

    @Test
    void findsThePvrdmaAdapterWithItsDriverIdsAndPairedVmxnet3() {
        List<ProviderInfo> devices = RdmaDeviceScan.scan(RecordedTrees.tree("synthesized-pvrdma-active"));
        assertEquals(1, devices.size());
        ProviderInfo d = devices.getFirst();
        assertEquals("vmw_pvrdma0", d.name());
        assertEquals("vmw_pvrdma", d.driver());
        assertEquals(RdmaProvider.PVRDMA, d.provider());
        assertTrue(d.isPvrdma());
        PciFunction pci = d.pci().orElseThrow();
        assertEquals("0000:0b:00.1", pci.address());
        assertEquals("15ad:0820", pci.ids());
        PciFunction nic = d.pairedNic().orElseThrow();
        assertTrue(nic.isVmxnet3());
        assertEquals("0000:0b:00.0", nic.address());
        assertEquals("vmxnet3", nic.driver());
        assertEquals(List.of("ens192"), nic.netdevs());
        assertEquals(List.of("ens192"), d.netdevs());
        assertEquals("1: CA", d.nodeType());
        assertEquals("3.0.0", d.firmware());
    }

    @Test
    void readsPortStateLinkLayerAndTypedGidsSkippingEmptySlots() {
        RdmaPort port = RdmaDeviceScan.scan(RecordedTrees.tree("synthesized-pvrdma-active")).getFirst().ports().getFirst();
        assertEquals(1, port.number());
        assertTrue(port.isActive());
        assertEquals("ACTIVE", port.state());
        assertTrue(port.isEthernet());
        assertEquals(4, port.gids().size(), "slots 4.. hold the zero GID and are not entries");
        assertEquals(List.of(GidType.ROCE_V1, GidType.ROCE_V2, GidType.ROCE_V1, GidType.ROCE_V2),
                port.gids().stream().map(GidEntry::type).toList());
        GidEntry preferred = port.preferredGid().orElseThrow();
        assertEquals(3, preferred.index());
        assertEquals("192.168.10.11", preferred.address().getHostAddress());
        assertEquals("ens192", preferred.netdev());
    }

    @Test
    void downPortIsReportedAsSuch() {
        RdmaPort port = RdmaDeviceScan.scan(RecordedTrees.tree("synthesized-pvrdma-port-down")).getFirst().ports().getFirst();
        assertFalse(port.isActive());
        assertEquals("DOWN", port.state());
        assertEquals("3: Disabled", port.physState());
    }

    @Test
    void softRoceDeviceHasNoPciParentAndRunsOverItsNetdev() {
        ProviderInfo rxe = RdmaDeviceScan.scan(RecordedTrees.tree("rxe")).getFirst();
        assertEquals("rxe0", rxe.name());
        assertEquals("rdma_rxe", rxe.driver());
        assertEquals(RdmaProvider.RXE, rxe.provider());
        assertTrue(rxe.pci().isEmpty());
        assertTrue(rxe.pairedNic().isEmpty());
        assertEquals(List.of("rig0"), rxe.netdevs());
        assertEquals(1, rxe.ports().getFirst().preferredGid().orElseThrow().index());
        assertEquals("", rxe.firmware());
    }

    @Test
    void guestWithoutRdmaHasNoDevices() {
        assertTrue(RdmaDeviceScan.scan(RecordedTrees.tree("no-rdma")).isEmpty());
        assertTrue(RdmaDeviceScan.scan(RecordedTrees.tree("exclusive-hidden")).isEmpty());
        assertEquals(1, RdmaDeviceScan.uverbsDeviceCount(RecordedTrees.tree("exclusive-hidden")));
    }

    @Test
    void driverIsReadFromASymbolicLinkOrFromAPlainFileHoldingItsTarget(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("a"));
        Files.createSymbolicLink(dir.resolve("a/driver"), Path.of("../../../bus/pci/drivers/vmw_pvrdma"));
        Files.writeString(dir.resolve("a/plain"), "../../../bus/pci/drivers/vmxnet3\n");
        SysfsRoot sys = SysfsRoot.at(dir);
        assertEquals("vmw_pvrdma", sys.linkName("a/driver").orElseThrow());
        assertEquals("vmxnet3", sys.linkName("a/plain").orElseThrow());
        assertTrue(sys.linkName("a/missing").isEmpty());
    }

    @Test
    void gidTypeTextAsSysfsPrintsIt() {
        assertEquals(GidType.ROCE_V2, RdmaDeviceScan.gidType("RoCE v2", true));
        assertEquals(GidType.ROCE_V1, RdmaDeviceScan.gidType("IB/RoCE v1", true));
        assertEquals(GidType.IB, RdmaDeviceScan.gidType("IB/RoCE v1", false));
    }
}
