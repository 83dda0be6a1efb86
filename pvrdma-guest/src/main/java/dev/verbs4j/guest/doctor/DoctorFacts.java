package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.KernelInfo;
import dev.verbs4j.guest.probe.LibibverbsView;
import dev.verbs4j.guest.probe.ProviderInfo;
import dev.verbs4j.guest.probe.ProviderLimits;
import dev.verbs4j.guest.probe.RdmaCoreInfo;
import dev.verbs4j.guest.probe.RdmaDeviceScan;
import dev.verbs4j.guest.probe.RdmaNetns;
import dev.verbs4j.guest.probe.SysfsRoot;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.DeviceAttributes;
import dev.verbs4j.verbs.DeviceInfo;
import dev.verbs4j.verbs.MemlockLimit;
import dev.verbs4j.verbs.Verbs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the doctor judges, gathered first so that judging is a pure function (and tests can
 * hand it recorded facts).
 *
 * @param sysfs        the sysfs root that was read
 * @param kernel       OS, architecture, kernel release
 * @param rdmaCore     rdma-core's presence and version
 * @param memlock      RLIMIT_MEMLOCK, empty when it could not be read
 * @param netns        RDMA namespace mode and this namespace's devices
 * @param devices      the RDMA devices in sysfs
 * @param libibverbs   what libibverbs lists (not checked on recorded trees)
 * @param limits       per device name, what it can be asked for
 * @param netdevStates per network interface of those devices, its operstate (up, down, ...)
 */
public record DoctorFacts(String sysfs, KernelInfo kernel, RdmaCoreInfo rdmaCore, Optional<MemlockLimit> memlock,
        RdmaNetns netns, List<ProviderInfo> devices, LibibverbsView libibverbs, Map<String, ProviderLimits> limits,
        Map<String, String> netdevStates) {

    /** Copies the list components, so the record is immutable. */
    public DoctorFacts {
        devices = List.copyOf(devices);
        limits = Map.copyOf(limits);
        netdevStates = Map.copyOf(netdevStates);
    }

    /**
     * Reads this machine. With a recorded sysfs tree, devices, namespaces and interfaces come from
     * the tree and libibverbs is not asked; kernel, rdma-core and memlock are this machine's.
     *
     * @param sys the live {@code /sys} or a recorded tree
     * @return the facts
     */
    public static DoctorFacts collect(SysfsRoot sys) {
        List<ProviderInfo> devices = RdmaDeviceScan.scan(sys);
        LibibverbsView view = sys.isLive() ? askLibibverbs() : LibibverbsView.notChecked();
        Map<String, ProviderLimits> limits = new LinkedHashMap<>();
        for (ProviderInfo d : devices) {
            limits.put(d.name(), sys.isLive() && view.offers(d.name()) ? queried(d) : ProviderLimits.of(d, Optional.empty(), 0));
        }
        return new DoctorFacts(sys.toString(), KernelInfo.current(), RdmaCoreInfo.detect(), readMemlock(),
                RdmaNetns.detect(sys), devices, view, limits, netdevStates(sys, devices));
    }

    /**
     * Limits known from sysfs alone (the device is not asked).
     *
     * @param devices the devices found
     * @return the limits by device name
     */
    public static Map<String, ProviderLimits> limitsFromSysfs(List<ProviderInfo> devices) {
        Map<String, ProviderLimits> limits = new LinkedHashMap<>();
        devices.forEach(d -> limits.put(d.name(), ProviderLimits.of(d, Optional.empty(), 0)));
        return limits;
    }

    /**
     * The operstate (up, down, ...) of every network interface these devices run over.
     *
     * @param sys     where to read
     * @param devices the devices found
     * @return the operstate by interface name
     */
    public static Map<String, String> netdevStates(SysfsRoot sys, List<ProviderInfo> devices) {
        Map<String, String> states = new LinkedHashMap<>();
        devices.forEach(d -> d.netdevs().forEach(n -> states.put(n, sys.read("class/net/" + n + "/operstate").orElse(""))));
        return states;
    }

    private static LibibverbsView askLibibverbs() {
        try {
            return LibibverbsView.listed(Verbs.devices().stream().map(DeviceInfo::name).toList());
        } catch (Throwable t) { // a missing libibverbs shows up as a linkage error
            return LibibverbsView.failed(t.getClass().getSimpleName() + ": " + t.getMessage());
        }
    }

    private static ProviderLimits queried(ProviderInfo device) {
        try (Context ctx = Verbs.open(device.name())) {
            DeviceAttributes attributes = ctx.queryDevice();
            return ProviderLimits.of(device, Optional.of(attributes), ctx.completionVectors());
        } catch (RuntimeException | LinkageError e) {
            return ProviderLimits.of(device, Optional.empty(), 0);
        }
    }

    private static Optional<MemlockLimit> readMemlock() {
        try {
            return Optional.of(MemlockLimit.current());
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }
}
