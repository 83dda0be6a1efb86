package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.KernelInfo;
import dev.verbs4j.guest.probe.NetnsMode;
import dev.verbs4j.guest.probe.PciFunction;
import dev.verbs4j.guest.probe.ProviderInfo;
import dev.verbs4j.guest.probe.ProviderLimits;
import dev.verbs4j.guest.probe.PvrdmaDriverFacts;
import dev.verbs4j.guest.probe.RdmaCoreInfo;
import dev.verbs4j.guest.probe.RdmaNetns;
import dev.verbs4j.guest.probe.RdmaPort;
import dev.verbs4j.guest.probe.SysfsRoot;
import dev.verbs4j.verbs.GidEntry;
import dev.verbs4j.verbs.GidType;
import dev.verbs4j.verbs.MemlockLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Checks a guest against the PVRDMA prerequisites and the usual RDMA failure causes, and says
 * which transport a channel would use.
 *
 * <p>Blocking problems (FAIL, non-zero exit code) are the ones that must be fixed: verbs4j cannot
 * run here at all (not 64-bit Linux), or an RDMA device is visible but cannot be used (rdma-core
 * or its provider missing, port not active, no usable GID). A guest that simply has no RDMA
 * device here is not broken: TCP is the designed outcome, reported as WARN. Everything that only
 * degrades (old kernel, finite memlock limit, no IPv4 RoCE v2 GID) is WARN.
 */
public final class Doctor {
    private Doctor() {}

    /**
     * Reads this machine (or a recorded sysfs tree) and judges it. Thread-safe; may run commands
     * (modinfo, ibv_devinfo) with a time limit.
     *
     * @param sys the live {@code /sys} ({@link SysfsRoot#system()}) or a recorded tree
     * @return the report: facts, checks and the transport verdict
     */
    public static DoctorReport run(SysfsRoot sys) {
        return examine(DoctorFacts.collect(sys), PvrdmaDriverFacts.read(sys));
    }

    /**
     * Judges facts already collected, with nothing known about the PVRDMA driver.
     *
     * @param facts what was read
     * @return the report
     */
    public static DoctorReport examine(DoctorFacts facts) {
        return examine(facts, PvrdmaDriverFacts.none());
    }

    /**
     * Judges the facts, with what is known about the PVRDMA adapters' driver.
     *
     * @param facts        what was read
     * @param pvrdmaDriver the PVRDMA functions without a driver, and the module's state
     * @return the report
     */
    public static DoctorReport examine(DoctorFacts facts, PvrdmaDriverFacts pvrdmaDriver) {
        List<DoctorCheck> checks = new ArrayList<>();
        checks.add(platform(facts.kernel()));
        checks.add(kernel(facts.kernel()));
        checks.add(rdmaCore(facts));
        checks.add(devices(facts));
        PvrdmaDriverCheck.check(pvrdmaDriver, facts.kernel()).ifPresent(checks::add);
        for (ProviderInfo device : facts.devices()) {
            provider(facts, device).ifPresent(checks::add);
            for (RdmaPort port : device.ports()) {
                checks.add(port(facts, device, port));
                checks.add(gids(device, port));
            }
            if (device.isPvrdma()) {
                checks.add(pvrdma(facts, device));
            }
        }
        checks.add(memlock(facts));
        checks.add(netns(facts));
        checks.add(DoctorNetnsChecks.rdmaCm(facts));
        return new DoctorReport(facts, checks, PvrdmaDriverCheck.explain(verdict(facts), facts, pvrdmaDriver));
    }

    static DoctorCheck platform(KernelInfo k) {
        String detail = k.os() + " " + k.arch() + ", " + k.bits() + "-bit";
        return k.isLinux() && k.is64Bit() ? DoctorCheck.ok("platform", detail)
                : DoctorCheck.fail("platform", detail + ": verbs4j needs 64-bit Linux",
                        "run on a 64-bit Linux guest with a 64-bit JDK 25");
    }

    static DoctorCheck kernel(KernelInfo k) {
        return k.supportsRdmaNamespaces()
                ? DoctorCheck.ok("kernel", k.release() + " (>= 5.5: RDMA network namespaces supported)")
                : DoctorCheck.warn("kernel", k.release() + " (< 5.5: no RDMA network namespaces; RDMA itself works)",
                        "use a kernel >= 5.5 to give RDMA devices to network namespaces (rdma system set netns exclusive)");
    }

    static DoctorCheck rdmaCore(DoctorFacts f) {
        RdmaCoreInfo core = f.rdmaCore();
        if (core.present()) {
            return DoctorCheck.ok("rdma-core", "libibverbs " + core.version() + " (" + core.source() + "), "
                    + core.providers().size() + " provider libraries");
        }
        String fix = "apt-get install rdma-core ibverbs-providers   (RHEL: dnf install rdma-core libibverbs)";
        return f.devices().isEmpty()
                ? DoctorCheck.warn("rdma-core", "not installed (libibverbs.so.1 not found); needed only for RDMA", fix)
                : DoctorCheck.fail("rdma-core", "not installed (libibverbs.so.1 not found), but an RDMA device is present", fix);
    }

    static DoctorCheck devices(DoctorFacts f) {
        if (f.devices().isEmpty()) {
            RdmaNetns ns = f.netns();
            if (ns.devicesElsewhere()) {
                return DoctorCheck.warn("devices", noDeviceReason(f),
                        "run in the namespace that owns the device, or move one here (rdma dev set DEV netns NS; "
                                + "the driver must support it), or use shared mode (rdma system set netns shared); "
                                + "channels use TCP meanwhile");
            }
            return DoctorCheck.warn("devices", noDeviceReason(f),
                    "PVRDMA: add a PVRDMA adapter to the VM (hardware version >= 13, distributed switch) and load "
                            + "vmw_pvrdma; elsewhere e.g. modprobe rdma_rxe && rdma link add rxe0 type rxe netdev IF; "
                            + "channels use TCP meanwhile");
        }
        return DoctorCheck.ok("devices", f.devices().stream().map(d -> d.name() + " (" + d.summary() + ")")
                .collect(Collectors.joining("; ")));
    }

    /** Present in sysfs but not offered by libibverbs: no user-space provider. */
    static Optional<DoctorCheck> provider(DoctorFacts f, ProviderInfo d) {
        String name = d.name() + " provider";
        String library = d.provider().library();
        String fix = "apt-get install ibverbs-providers   (RHEL: dnf install libibverbs)";
        if (!f.libibverbs().error().isEmpty()) {
            return Optional.of(DoctorCheck.fail(name, "libibverbs cannot be used: " + f.libibverbs().error(), fix));
        }
        if (!f.libibverbs().offers(d.name())) {
            return Optional.of(DoctorCheck.fail(name, "libibverbs does not list " + d.name()
                    + (library.isEmpty() ? "" : ": provider lib" + library + "-rdmav*.so missing or not matching"), fix));
        }
        if (!library.isEmpty() && f.rdmaCore().present() && !f.rdmaCore().hasProvider(library)) {
            return Optional.of(DoctorCheck.fail(name, "provider lib" + library + "-rdmav*.so not installed", fix));
        }
        if (library.isEmpty() || !f.rdmaCore().present()) {
            return Optional.empty();
        }
        return Optional.of(DoctorCheck.ok(name, "lib" + library + "-rdmav*.so installed"
                + (f.libibverbs().checked() ? ", libibverbs lists " + d.name() : "")));
    }

    static DoctorCheck port(DoctorFacts f, ProviderInfo d, RdmaPort p) {
        String name = d.name() + " port " + p.number();
        String detail = p.state() + ", " + p.linkLayer() + (p.physState().isEmpty() ? "" : ", phys " + p.physState());
        if (p.isActive()) {
            return DoctorCheck.ok(name, detail);
        }
        String netdevs = d.netdevs().stream().map(n -> n + stateSuffix(f, n)).collect(Collectors.joining(", "));
        String fix;
        if (d.isPvrdma()) {
            String nic = d.pairedNic().flatMap(n -> n.netdevs().stream().findFirst()).or(() -> d.netdevs().stream().findFirst())
                    .orElse("the paired vmxnet3");
            fix = "the PVRDMA port follows its paired vmxnet3 " + nic + ": ip link set " + nic
                    + " up, and check that the VM's adapter is connected to the distributed switch";
        } else if (!d.netdevs().isEmpty()) {
            fix = "bring the interface up: ip link set " + d.netdevs().getFirst() + " up";
        } else {
            fix = "check the link (cable, switch port, subnet manager on InfiniBand)";
        }
        return DoctorCheck.fail(name, detail + (netdevs.isEmpty() ? "" : "; interfaces: " + netdevs), fix);
    }

    static DoctorCheck gids(ProviderInfo d, RdmaPort p) {
        String name = d.name() + " port " + p.number() + " GIDs";
        List<GidEntry> gids = p.gids();
        String iface = d.netdevs().isEmpty() ? "the interface" : d.netdevs().getFirst();
        if (gids.isEmpty()) {
            return DoctorCheck.fail(name, "no GIDs",
                    p.isEthernet() ? "RoCE GIDs come from IP addresses: ip addr add ADDR/LEN dev " + iface
                            : "check the subnet manager");
        }
        long v2 = p.count(GidType.ROCE_V2);
        long v2ipv4 = gids.stream().filter(g -> g.type() == GidType.ROCE_V2 && g.isIpv4()).count();
        String counts = gids.size() + " populated: " + (p.isEthernet()
                ? v2 + " RoCE v2 (" + v2ipv4 + " IPv4), " + p.count(GidType.ROCE_V1) + " RoCE v1"
                : p.count(GidType.IB) + " IB");
        Optional<GidEntry> chosen = p.preferredGid();
        if (chosen.isEmpty()) {
            return DoctorCheck.fail(name, counts + "; no RoCE v2 GID, and no IPv4 RoCE v1 GID",
                    "give " + iface + " an IP address (RoCE v2 where the device offers it)");
        }
        String use = "; use index " + chosen.get().index() + " " + chosen.get().address().getHostAddress() + " ("
                + chosen.get().type().label() + (chosen.get().netdev().isEmpty() ? "" : ", " + chosen.get().netdev()) + ")";
        if (p.isEthernet() && v2 == 0) {
            return DoctorCheck.warn(name, counts + use + "; RoCE v1 only: a peer must be on the same Ethernet segment"
                    + " (RoCE v1 is not routed)", "a device that offers RoCE v2 reaches peers across IP routers");
        }
        if (p.isEthernet() && v2ipv4 == 0) {
            return DoctorCheck.warn(name, counts + use + "; no RoCE v2 IPv4 GID",
                    "peers usually address RoCE v2 over IPv4: ip addr add ADDR/LEN dev " + iface);
        }
        return DoctorCheck.ok(name, counts + use);
    }

    static DoctorCheck pvrdma(DoctorFacts f, ProviderInfo d) {
        String name = d.name() + " PVRDMA";
        ProviderLimits limits = f.limits().getOrDefault(d.name(), ProviderLimits.of(d, Optional.empty(), 0));
        String detail = "limits: " + limits.describe()
                + "; the VM needs 'Reserve all guest memory (All locked)' (not visible from inside the guest)";
        if (d.pairedNic().filter(PciFunction::isVmxnet3).isEmpty()) {
            return DoctorCheck.warn(name, detail + "; no paired vmxnet3 at function 0 of "
                    + d.pci().map(PciFunction::address).orElse("its slot"),
                    "vmw_pvrdma needs the vmxnet3 adapter at function 0 of the same PCI slot: re-add the adapters");
        }
        PciFunction nic = d.pairedNic().get();
        return DoctorCheck.ok(name, detail + "; paired vmxnet3 " + String.join(" ", nic.netdevs()) + " at " + nic.address());
    }

    static DoctorCheck memlock(DoctorFacts f) {
        String fix = "raise it: ulimit -l unlimited, memlock in /etc/security/limits.conf, or LimitMEMLOCK=infinity "
                + "for a systemd service" + (f.devices().stream().anyMatch(ProviderInfo::isPvrdma)
                        ? "; in the VM settings also 'Reserve all guest memory (All locked)'" : "");
        if (f.memlock().isEmpty()) {
            return DoctorCheck.warn("memlock", "RLIMIT_MEMLOCK could not be read", fix);
        }
        MemlockLimit limit = f.memlock().get();
        if (limit.isUnlimited()) {
            return DoctorCheck.ok("memlock", limit.describe());
        }
        if (f.devices().isEmpty()) {
            return DoctorCheck.ok("memlock", limit.describe() + " (matters only for RDMA)");
        }
        return DoctorCheck.warn("memlock", limit.describe() + ": registration pins memory, and registrations "
                + "beyond this fail with ENOMEM", fix);
    }

    static DoctorCheck netns(DoctorFacts f) {
        RdmaNetns ns = f.netns();
        String here = (ns.namespace().isEmpty() ? "this namespace" : "namespace " + ns.namespace()) + " sees "
                + (ns.visibleDevices().isEmpty() ? "no RDMA device" : String.join(", ", ns.visibleDevices()))
                + (ns.devicesElsewhere() ? " (" + (ns.machineDevices() - ns.visibleDevices().size())
                        + " more in other namespaces)" : "");
        if (ns.mode() == NetnsMode.UNKNOWN) {
            return f.devices().isEmpty() && ns.machineDevices() == 0
                    ? DoctorCheck.ok("netns", "RDMA core not loaded; " + here)
                    : DoctorCheck.warn("netns", "mode unknown; " + here, "check with: rdma system show");
        }
        return DoctorCheck.ok("netns", "mode " + ns.mode().label() + "; " + here);
    }

    /** The transport a channel would use: the best active port with a usable GID, else TCP and why. */
    static DoctorVerdict verdict(DoctorFacts f) {
        KernelInfo k = f.kernel();
        if (!k.isLinux() || !k.is64Bit()) {
            return DoctorVerdict.tcp("verbs4j's RDMA needs 64-bit Linux");
        }
        if (f.devices().isEmpty()) {
            return DoctorVerdict.tcp(noDeviceReason(f));
        }
        if (!f.rdmaCore().present()) {
            return DoctorVerdict.tcp("rdma-core (libibverbs) is not installed");
        }
        List<ProviderInfo> usable = f.devices().stream().filter(d -> f.libibverbs().offers(d.name())).toList();
        if (usable.isEmpty()) {
            return DoctorVerdict.tcp("libibverbs lists none of " + f.devices().stream().map(ProviderInfo::name)
                    .collect(Collectors.joining(", ")) + " (user-space provider missing)");
        }
        DoctorVerdict best = null;
        boolean bestIsIpv4V2 = false;
        String firstProblem = null;
        for (ProviderInfo d : usable) {
            for (RdmaPort p : d.ports()) {
                Optional<GidEntry> gid = p.preferredGid();
                String problem = !p.isActive() ? "port " + p.number() + " of " + d.name() + " is " + p.state()
                        : gid.isEmpty() ? (p.gids().isEmpty() ? "no GID" : "no RoCE v2 or IPv4 GID") + " on port " + p.number()
                                + " of " + d.name()
                        : null;
                if (problem != null) {
                    firstProblem = firstProblem != null ? firstProblem : problem;
                    continue;
                }
                GidEntry g = gid.get();
                boolean ipv4V2 = g.type() == GidType.ROCE_V2 && g.isIpv4();
                if (best == null || ipv4V2 && !bestIsIpv4V2) { // first usable port, unless a later one has RoCE v2 IPv4
                    best = DoctorVerdict.rdma(d.name(), p.number(), g.index(), g.type().label(),
                            g.address().getHostAddress(), (ipv4V2 ? "RoCE v2 IPv4" : g.type().label())
                                    + " GID on an active port");
                    bestIsIpv4V2 = ipv4V2;
                }
            }
        }
        return best != null ? best : DoctorVerdict.tcp(firstProblem);
    }

    private static String noDeviceReason(DoctorFacts f) {
        RdmaNetns ns = f.netns();
        String base = "no RDMA device visible in this network namespace";
        if (ns.devicesElsewhere()) {
            return base + " (netns mode " + ns.mode().label() + "; " + (ns.machineDevices() - ns.visibleDevices().size())
                    + " device(s) belong to other namespaces)";
        }
        return base;
    }

    private static String stateSuffix(DoctorFacts f, String netdev) {
        String state = f.netdevStates().getOrDefault(netdev, "");
        return state.isEmpty() ? "" : " " + state;
    }
}
