package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.KernelInfo;
import dev.verbs4j.guest.probe.LibibverbsView;
import dev.verbs4j.guest.probe.SysfsRoot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.verbs.MemlockLimit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The doctor on the recorded sysfs trees. Only {@code rxe} was captured (in the rig); the
 * {@code synthesized-pvrdma-*} trees are synthesized from the vmw_pvrdma driver's source, not
 * captured on a VMware VM (src/test/resources/sysfs/README.md).
 */
class DoctorRecordedTreesTest {

    private static DoctorReport doctor(String tree) {
        DoctorReport report = Doctor.examine(RecordedTrees.facts(tree));
        JsonCheck.validate(report.toJson());
        return report;
    }

    private static DoctorCheck check(DoctorReport report, String name) {
        return report.checks().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no check " + name + " in\n" + report.toText()));
    }

    @Test
    void activePvrdmaGuestUsesRdmaOnTheRoceV2Ipv4Gid() {
        DoctorReport r = doctor("synthesized-pvrdma-active");
        assertEquals(DoctorVerdict.rdma("vmw_pvrdma0", 1, 3, "RoCE v2", "192.168.10.11", "RoCE v2 IPv4 GID on an active port"),
                r.verdict());
        assertEquals(0, r.exitCode(), r.toText());
        String text = r.toText();
        assertTrue(text.contains("transport: rdma (vmw_pvrdma0, GID index 3, RoCE v2)"), text);
        assertTrue(text.contains("vmw_pvrdma0 (vmw_pvrdma, PCI 0000:0b:00.1 [15ad:0820], paired vmxnet3 ens192)"), text);
        assertEquals(CheckStatus.OK, check(r, "vmw_pvrdma0 port 1").status());
        DoctorCheck gids = check(r, "vmw_pvrdma0 port 1 GIDs");
        assertEquals(CheckStatus.OK, gids.status());
        assertTrue(gids.detail().startsWith("4 populated: 2 RoCE v2 (1 IPv4), 2 RoCE v1; use index 3 192.168.10.11"),
                gids.detail());
        DoctorCheck pvrdma = check(r, "vmw_pvrdma0 PVRDMA");
        assertTrue(pvrdma.detail().contains("RC+UD QPs, no inline data"), pvrdma.detail());
        assertTrue(pvrdma.detail().contains("Reserve all guest memory"), pvrdma.detail());
        assertTrue(pvrdma.detail().contains("paired vmxnet3 ens192 at 0000:0b:00.0"), pvrdma.detail());
        String json = r.toJson();
        assertTrue(json.contains("\"verdict\":{\"transport\":\"rdma\",\"device\":\"vmw_pvrdma0\",\"port\":1,\"gidIndex\":3,"), json);
        assertTrue(json.contains("\"qpTypes\":[\"RC\",\"UD\"],\"maxInlineData\":0"), json);
        assertTrue(json.contains("\"exitCode\":0"), json);
    }

    @Test
    void pvrdmaGuestWithItsPortDownFallsBackToTcpAndFails() {
        DoctorReport r = doctor("synthesized-pvrdma-port-down");
        assertEquals(DoctorVerdict.tcp("port 1 of vmw_pvrdma0 is DOWN"), r.verdict());
        assertEquals(1, r.exitCode());
        DoctorCheck port = check(r, "vmw_pvrdma0 port 1");
        assertEquals(CheckStatus.FAIL, port.status());
        assertTrue(port.detail().contains("interfaces: ens192 down"), port.detail());
        assertTrue(port.fix().contains("ip link set ens192 up"), port.fix());
        assertEquals(List.of(port), r.blockingProblems());
        assertTrue(r.toText().contains("transport: tcp (reason: port 1 of vmw_pvrdma0 is DOWN)"), r.toText());
        assertTrue(r.toJson().contains("\"transport\":\"tcp\""), r.toJson());
        assertTrue(r.toJson().contains("\"exitCode\":1,\"blocking\":true"), r.toJson());
    }

    @Test
    void guestWithoutRdmaUsesTcpAndThatIsNotABlockingProblem() {
        DoctorReport r = doctor("no-rdma");
        assertEquals(DoctorVerdict.tcp("no RDMA device visible in this network namespace"), r.verdict());
        assertEquals(0, r.exitCode(), r.toText());
        assertEquals(CheckStatus.WARN, check(r, "devices").status());
        assertEquals(CheckStatus.OK, check(r, "netns").status());
        assertTrue(r.toJson().contains("\"reason\":\"no RDMA device visible in this network namespace\""), r.toJson());
    }

    @Test
    void exclusiveNamespaceWithoutDeviceSaysTheDevicesAreElsewhere() {
        DoctorReport r = doctor("exclusive-hidden");
        assertEquals("tcp", r.verdict().transport());
        assertEquals("no RDMA device visible in this network namespace (netns mode exclusive; 1 device(s) belong to "
                + "other namespaces)", r.verdict().reason());
        assertEquals(0, r.exitCode());
        assertTrue(check(r, "netns").detail().startsWith("mode exclusive; namespace net:[4026531840] sees no RDMA device"),
                check(r, "netns").detail());
        assertTrue(r.toJson().contains("\"mode\":\"exclusive\""), r.toJson());
    }

    @Test
    void rxeGuestUsesRdmaOnGidOne() {
        DoctorReport r = doctor("rxe");
        assertEquals("transport: rdma (rxe0, GID index 1, RoCE v2)", r.verdict().line());
        assertEquals(0, r.exitCode(), r.toText());
        assertTrue(check(r, "devices").detail().contains("rxe0 (rdma_rxe, software device, on rig0)"), r.toText());
        assertFalse(r.checks().stream().anyMatch(c -> c.name().contains("PVRDMA")));
    }

    @Test
    void deviceThatLibibverbsDoesNotListIsBlocking() {
        DoctorFacts facts = RecordedTrees.facts("synthesized-pvrdma-active", LibibverbsView.listed(List.of()),
                Optional.of(new MemlockLimit(MemlockLimit.UNLIMITED, MemlockLimit.UNLIMITED)));
        DoctorReport r = Doctor.examine(facts);
        assertEquals(1, r.exitCode());
        assertEquals(CheckStatus.FAIL, check(r, "vmw_pvrdma0 provider").status());
        assertTrue(r.verdict().reason().startsWith("libibverbs lists none of vmw_pvrdma0"), r.verdict().reason());
    }

    @Test
    void finiteMemlockWithADeviceWarnsAndNamesTheVmSetting() {
        DoctorFacts facts = RecordedTrees.facts("synthesized-pvrdma-active", LibibverbsView.notChecked(),
                Optional.of(new MemlockLimit(8L << 20, 8L << 20)));
        DoctorCheck memlock = check(Doctor.examine(facts), "memlock");
        assertEquals(CheckStatus.WARN, memlock.status());
        assertTrue(memlock.detail().startsWith("8 MiB (hard 8 MiB)"), memlock.detail());
        assertTrue(memlock.fix().contains("Reserve all guest memory (All locked)"), memlock.fix());
    }

    @Test
    void oldKernelWarnsButDoesNotBlock() {
        DoctorCheck k = Doctor.kernel(new KernelInfo("Linux", "amd64", "4.19.0-27-amd64", 64));
        assertEquals(CheckStatus.WARN, k.status());
        assertEquals(CheckStatus.FAIL, Doctor.platform(new KernelInfo("Linux", "x86", "6.1.0", 32)).status());
    }

    @Test
    void liveDoctorOnThisHostRunsAndProducesValidJson() {
        DoctorReport r = Doctor.run(SysfsRoot.system());
        JsonCheck.validate(r.toJson());
        assertFalse(r.checks().isEmpty());
    }
}
