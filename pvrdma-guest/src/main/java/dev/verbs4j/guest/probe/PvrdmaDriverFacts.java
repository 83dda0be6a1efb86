package dev.verbs4j.guest.probe;

import java.util.List;
import java.util.Optional;

/**
 * Whether the PVRDMA adapters of this guest have their kernel driver: the PCI functions
 * {@code 15ad:0820} that no driver has bound, whether the {@code vmw_pvrdma} module is loaded,
 * and whether this kernel has it at all. The usual failure on distributions whose kernels are
 * built without {@code CONFIG_INFINIBAND_VMWARE_PVRDMA} (Debian's): the adapter is there and
 * nothing drives it, so no RDMA device appears.
 *
 * @param driverless    PVRDMA PCI functions without a bound driver
 * @param moduleLoaded  {@code /sys/module/vmw_pvrdma} exists
 * @param moduleFile    where {@code modinfo -n vmw_pvrdma} finds the module; empty when it does not,
 *                      or when it was not asked ({@code moduleChecked} false)
 * @param moduleChecked modinfo was run (only on the live system, and only when some function is driverless)
 */
public record PvrdmaDriverFacts(List<PciFunction> driverless, boolean moduleLoaded, Optional<String> moduleFile,
        boolean moduleChecked) {
    static final String MODULE = "vmw_pvrdma";

    /** Copies the list components, so the record is immutable. */
    public PvrdmaDriverFacts {
        driverless = List.copyOf(driverless);
    }

    /**
     * No PVRDMA adapter lacks its driver (or none is there).
     *
     * @return facts with no driverless function
     */
    public static PvrdmaDriverFacts none() {
        return new PvrdmaDriverFacts(List.of(), false, Optional.empty(), false);
    }

    /**
     * Reads the PCI functions and modules of {@code sys}; asks modinfo only on the live system.
     *
     * @param sys the live {@code /sys} or a recorded tree
     * @return the facts
     */
    public static PvrdmaDriverFacts read(SysfsRoot sys) {
        List<PciFunction> driverless = sys.list("bus/pci/devices").stream()
                .flatMap(a -> PciFunction.read(sys, "bus/pci/devices/" + a).stream())
                .filter(p -> p.isPvrdma() && p.driver().isEmpty())
                .toList();
        boolean loaded = sys.exists("module/" + MODULE);
        boolean ask = sys.isLive() && !driverless.isEmpty();
        Optional<String> file = ask ? Commands.output(List.of("modinfo", "-n", MODULE)).filter(s -> !s.isBlank())
                : Optional.empty();
        return new PvrdmaDriverFacts(driverless, loaded, file, ask);
    }
}
