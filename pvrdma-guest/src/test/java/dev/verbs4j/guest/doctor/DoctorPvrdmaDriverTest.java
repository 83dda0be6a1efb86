package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.PvrdmaDriverFacts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The doctor on a VM whose PVRDMA adapter has no driver. The tree {@code synthesized-pvrdma-no-driver}
 * is synthesized from the vmw_pvrdma driver's source and the kernel's sysfs ABI, not captured on a
 * VMware VM (see src/test/resources/sysfs/README.md): this shows the doctor reads that layout as
 * intended, not what a real ESXi guest exposes.
 */
class DoctorPvrdmaDriverTest {
    private static final String TREE = "synthesized-pvrdma-no-driver";

    private static DoctorReport doctor(PvrdmaDriverFacts driver) {
        DoctorReport report = Doctor.examine(RecordedTrees.facts(TREE), driver);
        JsonCheck.validate(report.toJson());
        return report;
    }

    private static DoctorCheck driverCheck(DoctorReport r) {
        return r.checks().stream().filter(c -> c.name().equals(PvrdmaDriverCheck.NAME)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + PvrdmaDriverCheck.NAME + " check in\n" + r.toText()));
    }

    @Test
    void readsTheDriverlessFunctionFromTheTree() {
        PvrdmaDriverFacts f = PvrdmaDriverFacts.read(RecordedTrees.tree(TREE));
        assertEquals(1, f.driverless().size());
        assertEquals("0000:0b:00.1", f.driverless().getFirst().address());
        assertEquals("15ad:0820", f.driverless().getFirst().ids());
        assertFalse(f.moduleLoaded());
        assertFalse(f.moduleChecked(), "modinfo is asked on the live system only");
    }

    @Test
    void moduleMissingIsBlockingAndSaysWhereToGetIt() {
        DoctorReport r = doctor(PvrdmaDriverFacts.read(RecordedTrees.tree(TREE)));
        DoctorCheck c = driverCheck(r);
        assertEquals(CheckStatus.FAIL, c.status());
        assertEquals("PVRDMA PCI function 0000:0b:00.1 [15ad:0820] present, but no driver bound; module vmw_pvrdma "
                + "is not loaded", c.detail());
        assertTrue(c.fix().contains("CONFIG_INFINIBAND_VMWARE_PVRDMA (Debian's kernels are not)"), c.fix());
        assertTrue(c.fix().contains("build it for this kernel"), c.fix());
        assertTrue(c.fix().contains("lspci -nn | grep 15ad:0820; modinfo vmw_pvrdma"), c.fix());
        assertEquals(1, r.exitCode());
        assertEquals(DoctorVerdict.tcp("the PVRDMA adapter 0000:0b:00.1 [15ad:0820] has no driver (vmw_pvrdma is not "
                + "loaded)"), r.verdict());
        String text = r.toText();
        assertTrue(text.contains("[FAIL] PVRDMA driver"), text);
        assertTrue(text.contains("fix: the kernel must be built with CONFIG_INFINIBAND_VMWARE_PVRDMA"), text);
        String json = r.toJson();
        assertTrue(json.contains("{\"name\":\"PVRDMA driver\",\"status\":\"FAIL\",\"detail\":\"PVRDMA PCI function "
                + "0000:0b:00.1 [15ad:0820] present, but no driver bound"), json);
        assertTrue(json.contains("\"reason\":\"the PVRDMA adapter 0000:0b:00.1 [15ad:0820] has no driver"), json);
    }

    @Test
    void liveKernelWithoutTheModuleIsNamed() {
        PvrdmaDriverFacts tree = PvrdmaDriverFacts.read(RecordedTrees.tree(TREE));
        var f = new PvrdmaDriverFacts(tree.driverless(), false, Optional.empty(), true);
        assertTrue(driverCheck(doctor(f)).detail().endsWith("module vmw_pvrdma is not loaded and kernel 6.1.0-56-amd64 "
                + "does not have it"));
    }

    @Test
    void moduleInTheKernelButNotLoadedSaysModprobe() {
        PvrdmaDriverFacts tree = PvrdmaDriverFacts.read(RecordedTrees.tree(TREE));
        String ko = "/lib/modules/6.8.0-45-generic/kernel/drivers/infiniband/hw/vmw_pvrdma/vmw_pvrdma.ko.zst";
        DoctorCheck c = driverCheck(doctor(new PvrdmaDriverFacts(tree.driverless(), false, Optional.of(ko), true)));
        assertEquals(CheckStatus.FAIL, c.status());
        assertTrue(c.detail().endsWith("(this kernel has it: " + ko + ")"), c.detail());
        assertTrue(c.fix().startsWith("modprobe vmw_pvrdma"), c.fix());
    }

    @Test
    void moduleLoadedButNotBoundPointsAtDmesgAndThePairedNic() {
        PvrdmaDriverFacts tree = PvrdmaDriverFacts.read(RecordedTrees.tree(TREE));
        DoctorReport r = doctor(new PvrdmaDriverFacts(tree.driverless(), true, Optional.empty(), false));
        assertTrue(driverCheck(r).fix().startsWith("vmw_pvrdma did not take the adapter: see dmesg"), driverCheck(r).fix());
        assertTrue(r.verdict().reason().endsWith("(vmw_pvrdma did not bind it)"), r.verdict().reason());
    }

    @Test
    void noCheckWhenThePvrdmaFunctionHasItsDriver() {
        PvrdmaDriverFacts f = PvrdmaDriverFacts.read(RecordedTrees.tree("synthesized-pvrdma-active"));
        assertEquals(List.of(), f.driverless());
        assertFalse(Doctor.examine(RecordedTrees.facts("synthesized-pvrdma-active"), f).checks().stream()
                .anyMatch(c -> c.name().equals(PvrdmaDriverCheck.NAME)));
        assertEquals(List.of(), PvrdmaDriverFacts.read(RecordedTrees.tree("no-rdma")).driverless());
    }
}
