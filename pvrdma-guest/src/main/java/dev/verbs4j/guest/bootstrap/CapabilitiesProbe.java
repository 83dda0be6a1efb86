package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.probe.ThreadNetdevs;
import dev.verbs4j.guest.probe.NetnsMode;
import dev.verbs4j.guest.probe.RdmaNetns;
import dev.verbs4j.guest.probe.SysfsRoot;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.DeviceInfo;
import dev.verbs4j.verbs.GidChooser;
import dev.verbs4j.verbs.GidEntry;
import dev.verbs4j.verbs.GidType;
import dev.verbs4j.verbs.MemlockLimit;
import dev.verbs4j.verbs.PortAttributes;
import dev.verbs4j.verbs.Verbs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds out whether this process can run a channel over RDMA: a device libibverbs shows in this
 * network namespace, an active port, a usable GID (RoCE v2 on Ethernet, v1 where the port has no
 * v2), and enough memlock
 * headroom for the buffers a channel registers.
 */
final class CapabilitiesProbe {
    private CapabilitiesProbe() {}

    /**
     * @param device         a device name, or null for the first usable one whose GID belongs to an
     *                       interface of the calling thread's network namespace (in shared netns
     *                       mode every device is visible, but another namespace's cannot reach a peer)
     * @param gidIndex       a GID index, or -1 to prefer a RoCE v2 IPv4 GID
     * @param bytesToRegister what a channel will register (its receive and send buffers)
     */
    public static Capabilities probe(String device, int gidIndex, long bytesToRegister) {
        List<DeviceInfo> devices;
        try {
            devices = Verbs.devices();
        } catch (LinkageError e) {
            return Capabilities.lacking(CapabilitiesGap.NO_RDMA_LIBRARY, e.getMessage());
        } catch (RuntimeException e) {
            return Capabilities.lacking(CapabilitiesGap.DEVICE_ERROR, e.getMessage());
        }
        if (devices.isEmpty()) {
            return noDevice(RdmaNetns.detect(SysfsRoot.system()));
        }
        Capabilities firstGap = null;
        Optional<Set<String>> netdevsHere = device == null ? ThreadNetdevs.current() : Optional.empty();
        for (DeviceInfo info : devices) {
            if (device != null && !device.equals(info.name())) {
                continue;
            }
            Capabilities c = probeDevice(info.name(), gidIndex, bytesToRegister, netdevsHere);
            if (c.canRdma()) {
                return c;
            }
            if (firstGap == null) {
                firstGap = c;
            }
        }
        if (firstGap == null) {
            return Capabilities.lacking(CapabilitiesGap.NO_DEVICE, "no device named " + device + "; present: "
                    + devices.stream().map(DeviceInfo::name).toList());
        }
        return firstGap;
    }

    /**
     * The gap when libibverbs lists nothing. In exclusive mode (or with devices owned by other
     * namespaces) the empty list is this namespace's view, not the machine's, and the reason says so.
     */
    static Capabilities noDevice(RdmaNetns netns) {
        if (netns.mode() == NetnsMode.EXCLUSIVE || netns.devicesElsewhere()) {
            return Capabilities.lacking(CapabilitiesGap.NO_DEVICE_IN_NETNS, "netns mode " + netns.mode().label());
        }
        return Capabilities.lacking(CapabilitiesGap.NO_DEVICE, "");
    }

    /** {@code netdevsHere}: when present, a GID on an interface outside it is not usable from here. */
    private static Capabilities probeDevice(String name, int gidIndex, long bytesToRegister,
            Optional<Set<String>> netdevsHere) {
        try (Context ctx = Verbs.open(name)) {
            int ports = ctx.queryDevice().physicalPortCount();
            Capabilities gap = null;
            for (int port = 1; port <= ports; port++) {
                PortAttributes attrs = ctx.queryPort(port);
                if (!attrs.isActive()) {
                    gap = gap != null ? gap : Capabilities.lacking(CapabilitiesGap.NO_ACTIVE_PORT,
                            name + " port " + port + " is " + attrs.stateName());
                    continue;
                }
                GidEntry gid;
                try {
                    gid = ctx.chooseGid(port, gidIndex >= 0 ? GidChooser.index(gidIndex) : GidChooser.preferRoceV2Ipv4());
                } catch (RuntimeException e) {
                    gap = Capabilities.lacking(CapabilitiesGap.NO_ROCE_V2_GID, name + " port " + port + ": "
                            + e.getMessage());
                    continue;
                }
                if (!gid.netdev().isEmpty() && netdevsHere.isPresent() && !netdevsHere.get().contains(gid.netdev())) {
                    gap = gap != null ? gap : Capabilities.lacking(CapabilitiesGap.NO_DEVICE_FOR_NETNS, name + " port "
                            + port + " GID " + gid.index() + " is on " + gid.netdev() + ", not here");
                    continue;
                }
                // RoCE v1 only when asked for by index, or when the port has no RoCE v2 GID at all (the
                // chooser prefers v2): PVRDMA's device version 17 speaks v1 only. v1 is not routed,
                // so a peer beyond the Ethernet segment fails the connect probe and TCP takes over.
                boolean ethernet = attrs.linkLayer() == PortAttributes.LINK_LAYER_ETHERNET;
                if (ethernet && gid.type() != GidType.ROCE_V2 && gid.type() != GidType.ROCE_V1) {
                    gap = Capabilities.lacking(CapabilitiesGap.NO_ROCE_V2_GID, name + " port " + port
                            + " offers " + gid.type().label() + " at index " + gid.index());
                    continue;
                }
                long headroom = memlockHeadroom();
                if (headroom >= 0 && headroom < bytesToRegister) {
                    return Capabilities.lacking(CapabilitiesGap.MEMLOCK_TOO_LOW, "headroom " + headroom
                            + " bytes, a channel registers " + bytesToRegister + "; raise ulimit -l");
                }
                return Capabilities.usable(name, port, gid.index(), gid.type().label(), headroom);
            }
            return gap != null ? gap : Capabilities.lacking(CapabilitiesGap.NO_ACTIVE_PORT, name + " has no ports");
        } catch (RuntimeException e) {
            return Capabilities.lacking(CapabilitiesGap.DEVICE_ERROR, name + ": " + e.getMessage());
        }
    }

    /** Bytes this process may still lock: the soft limit less what is locked already; -1 = unlimited. */
    static long memlockHeadroom() {
        MemlockLimit limit = MemlockLimit.current();
        if (limit.isUnlimited()) {
            return -1;
        }
        return Math.max(0, limit.soft() - lockedBytes());
    }

    /** VmLck of /proc/self/status (what this process has pinned), 0 when unreadable. */
    private static long lockedBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmLck:")) {
                    String[] parts = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux or no procfs: assume nothing is locked yet
        }
        return 0;
    }
}
