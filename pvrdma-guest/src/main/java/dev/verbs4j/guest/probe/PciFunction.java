package dev.verbs4j.guest.probe;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One PCI function as sysfs shows it under {@code bus/pci/devices/ADDRESS} (or under an RDMA
 * device's {@code device} entry).
 *
 * @param address  domain:bus:slot.function, e.g. {@code 0000:0b:00.1}
 * @param vendorId e.g. 0x15ad (VMware)
 * @param deviceId e.g. 0x0820 (PVRDMA) or 0x07b0 (vmxnet3)
 * @param driver   the bound driver's name, "" when none is bound
 * @param netdevs  network interfaces this function provides
 */
public record PciFunction(String address, int vendorId, int deviceId, String driver, List<String> netdevs) {
    public static final int VENDOR_VMWARE = 0x15ad;
    public static final int DEVICE_PVRDMA = 0x0820;
    public static final int DEVICE_VMXNET3 = 0x07b0;

    /** Copies the list components, so the record is immutable. */
    public PciFunction {
        netdevs = List.copyOf(netdevs);
    }

    /** Reads the function whose sysfs directory is {@code dir} (relative to the root). */
    static Optional<PciFunction> read(SysfsRoot sys, String dir) {
        Optional<Integer> vendor = sys.read(dir + "/vendor").flatMap(PciFunction::hex);
        Optional<Integer> device = sys.read(dir + "/device").flatMap(PciFunction::hex);
        if (vendor.isEmpty() || device.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> uevent = Uevent.read(sys, dir + "/uevent");
        String driver = sys.linkName(dir + "/driver").orElse(uevent.getOrDefault("DRIVER", ""));
        String address = uevent.getOrDefault("PCI_SLOT_NAME", "");
        if (address.isEmpty()) {
            // Live sysfs: the directory itself is a link whose target ends in the address.
            address = sys.linkName(dir).orElse("");
        }
        return Optional.of(new PciFunction(address, vendor.get(), device.get(), driver, sys.list(dir + "/net")));
    }

    /**
     * The vendor and device IDs.
     *
     * @return "15ad:0820", the form lspci -nn prints
     */
    public String ids() {
        return String.format("%04x:%04x", vendorId, deviceId);
    }

    /**
     * The address of function 0 in the same slot (where PVRDMA's paired vmxnet3 sits).
     *
     * @return the address, empty when this is function 0 or the address has another form
     */
    public Optional<String> functionZero() {
        int dot = address.lastIndexOf('.');
        return dot < 0 ? Optional.empty() : Optional.of(address.substring(0, dot) + ".0");
    }

    /**
     * Whether this is a VMware PVRDMA function.
     *
     * @return true for 15ad:0820
     */
    public boolean isPvrdma() {
        return vendorId == VENDOR_VMWARE && deviceId == DEVICE_PVRDMA;
    }

    /**
     * Whether this is a VMware vmxnet3 function.
     *
     * @return true for 15ad:07b0
     */
    public boolean isVmxnet3() {
        return vendorId == VENDOR_VMWARE && deviceId == DEVICE_VMXNET3;
    }

    private static Optional<Integer> hex(String s) {
        try {
            return Optional.of(Integer.decode(s.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
