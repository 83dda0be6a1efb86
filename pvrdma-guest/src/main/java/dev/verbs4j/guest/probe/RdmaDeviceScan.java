package dev.verbs4j.guest.probe;

import dev.verbs4j.verbs.GidEntry;
import dev.verbs4j.verbs.GidType;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the RDMA devices in sysfs ({@code class/infiniband}) and describes each: driver, PCI ids,
 * paired network interface, ports and GID tables. In a network namespace, sysfs shows only the
 * devices that namespace may use, which is exactly what libibverbs will offer there.
 */
public final class RdmaDeviceScan {
    private static final String CLASS = "class/infiniband/";

    private RdmaDeviceScan() {}

    /**
     * The RDMA devices in {@code class/infiniband}: what this network namespace may use.
     *
     * @param sys the live {@code /sys} or a recorded tree
     * @return the devices, sorted by name
     */
    public static List<ProviderInfo> scan(SysfsRoot sys) {
        List<ProviderInfo> devices = new ArrayList<>();
        for (String name : sys.list("class/infiniband")) {
            devices.add(describe(sys, name));
        }
        return List.copyOf(devices);
    }

    /**
     * The uverbs character devices of the whole machine ({@code class/infiniband_verbs} is not
     * namespaced): more of them than devices in {@code class/infiniband} means some devices
     * belong to another network namespace.
     *
     * @param sys the live {@code /sys} or a recorded tree
     * @return how many uverbs devices the machine has
     */
    public static int uverbsDeviceCount(SysfsRoot sys) {
        return (int) sys.list("class/infiniband_verbs").stream().filter(n -> n.startsWith("uverbs")).count();
    }

    static ProviderInfo describe(SysfsRoot sys, String name) {
        String dir = CLASS + name;
        Optional<PciFunction> pci = PciFunction.read(sys, dir + "/device");
        String driver = sys.linkName(dir + "/device/driver")
                .or(() -> pci.map(PciFunction::driver).filter(d -> !d.isEmpty()))
                .orElseGet(() -> softwareDriver(sys, dir, name));
        RdmaProvider provider = pci.filter(PciFunction::isPvrdma).map(p -> RdmaProvider.PVRDMA)
                .orElse(RdmaProvider.ofDriver(driver));
        Optional<PciFunction> paired = provider == RdmaProvider.PVRDMA
                ? pci.flatMap(PciFunction::functionZero).flatMap(a -> PciFunction.read(sys, "bus/pci/devices/" + a))
                : Optional.empty();
        List<RdmaPort> ports = new ArrayList<>();
        for (String p : sys.list(dir + "/ports")) {
            parseInt(p).ifPresent(n -> ports.add(port(sys, dir + "/ports/" + p, n)));
        }
        return new ProviderInfo(name, driver, provider, pci, paired, netdevs(sys, dir, pci, paired, ports),
                sys.read(dir + "/node_type").orElse(""), sys.read(dir + "/fw_ver").orElse(""), ports);
    }

    /** Software devices have no {@code device} link; rxe and siw name themselves in node_desc. */
    private static String softwareDriver(SysfsRoot sys, String dir, String name) {
        String desc = sys.read(dir + "/node_desc").orElse("").toLowerCase();
        if (name.startsWith("rxe") || desc.equals("rxe")) {
            return RdmaProvider.RXE.driver();
        }
        if (name.startsWith("siw") || desc.contains("iwarp")) {
            return RdmaProvider.SIW.driver();
        }
        return "";
    }

    private static List<String> netdevs(SysfsRoot sys, String dir, Optional<PciFunction> pci,
            Optional<PciFunction> paired, List<RdmaPort> ports) {
        Set<String> names = new LinkedHashSet<>();
        pci.ifPresent(p -> names.addAll(p.netdevs()));
        paired.ifPresent(p -> names.addAll(p.netdevs()));
        sys.read(dir + "/parent").filter(s -> !s.isEmpty()).ifPresent(names::add); // rxe, siw
        ports.forEach(p -> p.gids().forEach(g -> {
            if (!g.netdev().isEmpty()) {
                names.add(g.netdev());
            }
        }));
        return List.copyOf(names);
    }

    private static RdmaPort port(SysfsRoot sys, String dir, int number) {
        String stateText = sys.read(dir + "/state").orElse("0: UNKNOWN");
        int code = parseInt(stateText.split(":", 2)[0]).orElse(0);
        String state = stateText.contains(":") ? stateText.substring(stateText.indexOf(':') + 1).trim() : stateText;
        String linkLayer = sys.read(dir + "/link_layer").orElse("");
        List<Integer> indexes = new ArrayList<>();
        sys.list(dir + "/gids").forEach(s -> parseInt(s).ifPresent(indexes::add));
        indexes.sort(null);
        List<GidEntry> gids = new ArrayList<>();
        for (int i : indexes) {
            gid(sys, dir, number, i, linkLayer).ifPresent(gids::add);
        }
        return new RdmaPort(number, code, state, sys.read(dir + "/phys_state").orElse(""), linkLayer, gids);
    }

    /** A populated entry; the all-zero GID marks an empty slot. */
    private static Optional<GidEntry> gid(SysfsRoot sys, String dir, int port, int index, String linkLayer) {
        Optional<byte[]> raw = sys.read(dir + "/gids/" + index).flatMap(RdmaDeviceScan::parseGid);
        if (raw.isEmpty() || isZero(raw.get())) {
            return Optional.empty();
        }
        boolean ethernet = "Ethernet".equalsIgnoreCase(linkLayer);
        GidType type = sys.read(dir + "/gid_attrs/types/" + index).map(t -> gidType(t, ethernet))
                .orElse(ethernet ? GidType.ROCE_V1 : GidType.IB);
        String netdev = sys.read(dir + "/gid_attrs/ndevs/" + index).orElse("");
        return Optional.of(new GidEntry(port, index, raw.get(), type, netdev));
    }

    /** sysfs prints "RoCE v2" or "IB/RoCE v1" (the latter meaning RoCE v1 on Ethernet). */
    static GidType gidType(String text, boolean ethernet) {
        if (text.contains("v2")) {
            return GidType.ROCE_V2;
        }
        return ethernet ? GidType.ROCE_V1 : GidType.IB;
    }

    static Optional<byte[]> parseGid(String text) {
        String hex = text.replace(":", "");
        if (hex.length() != 32) {
            return Optional.empty();
        }
        try {
            return Optional.of(HexFormat.of().parseHex(hex));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static boolean isZero(byte[] gid) {
        for (byte b : gid) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static Optional<Integer> parseInt(String s) {
        try {
            return Optional.of(Integer.parseInt(s.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
