package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.KernelInfo;
import dev.verbs4j.guest.probe.PciFunction;
import dev.verbs4j.guest.probe.PvrdmaDriverFacts;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The doctor's answer to "the VM has a PVRDMA adapter but no RDMA device": which of the three
 * causes it is (module not in this kernel, not loaded, loaded but not bound) and what to do.
 */
final class PvrdmaDriverCheck {
    static final String NAME = "PVRDMA driver";
    private static final String HOW_TO_CHECK = "check with: lspci -nn | grep 15ad:0820; modinfo vmw_pvrdma; "
            + "grep PVRDMA /boot/config-$(uname -r)";

    private PvrdmaDriverCheck() {}

    /** A FAIL when some PVRDMA function has no driver; nothing otherwise. */
    static Optional<DoctorCheck> check(PvrdmaDriverFacts f, KernelInfo kernel) {
        if (f.driverless().isEmpty()) {
            return Optional.empty();
        }
        String functions = f.driverless().stream().map(p -> p.address().isEmpty() ? "[" + p.ids() + "]"
                : p.address() + " [" + p.ids() + "]").collect(Collectors.joining(", "));
        String found = "PVRDMA PCI function " + functions + " present, but no driver bound";
        if (f.moduleLoaded()) {
            return Optional.of(DoctorCheck.fail(NAME, found + "; module vmw_pvrdma is loaded",
                    "vmw_pvrdma did not take the adapter: see dmesg | grep -i pvrdma (it needs the vmxnet3 adapter "
                            + "at function 0 of the same PCI slot and VM hardware version >= 13); " + HOW_TO_CHECK));
        }
        if (f.moduleFile().isPresent()) {
            return Optional.of(DoctorCheck.fail(NAME, found + "; module vmw_pvrdma is not loaded (this kernel has it: "
                    + f.moduleFile().get() + ")",
                    "modprobe vmw_pvrdma, and list it in /etc/modules-load.d/ to load it at boot; " + HOW_TO_CHECK));
        }
        String missing = f.moduleChecked()
                ? "; module vmw_pvrdma is not loaded and kernel " + kernel.release() + " does not have it"
                : "; module vmw_pvrdma is not loaded";
        return Optional.of(DoctorCheck.fail(NAME, found + missing,
                "the kernel must be built with CONFIG_INFINIBAND_VMWARE_PVRDMA (Debian's kernels are not): boot a "
                        + "kernel that has the vmw_pvrdma module (e.g. Ubuntu's, where it is in "
                        + "linux-modules-extra-$(uname -r)), or build it for this kernel from its source "
                        + "(drivers/infiniband/hw/vmw_pvrdma, CONFIG_INFINIBAND_VMWARE_PVRDMA=m, with the "
                        + "linux-headers-$(uname -r) package), then modprobe vmw_pvrdma; " + HOW_TO_CHECK));
    }

    /** With no RDMA device, the driverless adapter is the reason for TCP. */
    static DoctorVerdict explain(DoctorVerdict verdict, DoctorFacts facts, PvrdmaDriverFacts f) {
        if (verdict.isRdma() || !facts.devices().isEmpty() || f.driverless().isEmpty()) {
            return verdict;
        }
        PciFunction first = f.driverless().getFirst();
        return DoctorVerdict.tcp("the PVRDMA adapter " + (first.address().isEmpty() ? "" : first.address() + " ")
                + "[" + first.ids() + "] has no driver (vmw_pvrdma " + (f.moduleLoaded() ? "did not bind it" : "is not loaded")
                + ")");
    }
}
