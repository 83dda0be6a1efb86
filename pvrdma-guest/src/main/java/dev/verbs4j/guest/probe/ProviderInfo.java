package dev.verbs4j.guest.probe;

import java.util.List;
import java.util.Optional;

/**
 * What sysfs says about one RDMA device: who drives it, which PCI function and network
 * interfaces it sits on, and its ports.
 *
 * @param name      kernel name, e.g. {@code vmw_pvrdma0} or {@code rxe0}
 * @param driver    kernel driver, e.g. {@code vmw_pvrdma} or {@code rdma_rxe}
 * @param provider  the known provider for that driver
 * @param pci       the device's PCI function; empty for software devices (rxe, siw)
 * @param pairedNic PVRDMA only: the vmxnet3 at function 0 of the same slot, which the driver
 *                  needs and whose link state is the RDMA port's state
 * @param netdevs   the network interfaces the device runs over
 * @param nodeType  sysfs node_type, e.g. "1: CA"
 * @param firmware  fw_ver, "" when the device has none
 * @param ports     its ports
 */
public record ProviderInfo(String name, String driver, RdmaProvider provider, Optional<PciFunction> pci,
        Optional<PciFunction> pairedNic, List<String> netdevs, String nodeType, String firmware,
        List<RdmaPort> ports) {

    /** Copies the list components, so the record is immutable. */
    public ProviderInfo {
        netdevs = List.copyOf(netdevs);
        ports = List.copyOf(ports);
    }

    /**
     * Whether this device is a VMware PVRDMA adapter.
     *
     * @return true for the vmw_pvrdma provider
     */
    public boolean isPvrdma() {
        return provider == RdmaProvider.PVRDMA || pci.map(PciFunction::isPvrdma).orElse(false);
    }

    /**
     * The device in one line.
     *
     * @return "vmw_pvrdma, PCI 0000:0b:00.1 [15ad:0820], paired vmxnet3 ens192" and the like
     */
    public String summary() {
        StringBuilder s = new StringBuilder(driver.isEmpty() ? "driver unknown" : driver);
        pci.ifPresentOrElse(p -> s.append(", PCI ").append(p.address()).append(" [").append(p.ids()).append(']'),
                () -> s.append(", software device"));
        pairedNic.ifPresent(n -> s.append(", paired ").append(n.isVmxnet3() ? "vmxnet3 " : "NIC ")
                .append(n.netdevs().isEmpty() ? n.address() : String.join(" ", n.netdevs())));
        if (pairedNic.isEmpty() && !netdevs.isEmpty()) {
            s.append(", on ").append(String.join(" ", netdevs));
        }
        return s.toString();
    }
}
