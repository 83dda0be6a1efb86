package dev.verbs4j.examples;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.cli.CommonOptions;

import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.DeviceAttributes;
import dev.verbs4j.verbs.DeviceInfo;
import dev.verbs4j.verbs.GidEntry;
import dev.verbs4j.verbs.PortAttributes;
import dev.verbs4j.verbs.Verbs;
import dev.verbs4j.verbs.VerbsException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bin/verbs4j devices}: the devices, their ports and GID tables, like ibv_devinfo. */
@Command(name = "devices", description = {"RDMA devices, ports and GID tables (like ibv_devinfo)",
        "Lists the RDMA devices of this host with their ports (state, MTU, link layer) and GID tables "
                + "(index, GID, type, network device), like ibv_devinfo -v in short."})
public final class DevicesCommand implements Callable<Integer> {
    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEVICE", description = "only this device")
    String only;

    @Mixin
    CommonOptions common;

    private DevicesCommand() {}

    public static void main(String[] args) {
        Cli.exit(new DevicesCommand(), args);
    }

    @Override
    public Integer call() {
        common.applyVerbosity();
        return run(only, System.out);
    }

    static int run(String only, PrintStream out) {
        List<DeviceInfo> devices = Verbs.devices();
        if (devices.isEmpty()) {
            out.println("No RDMA devices found.");
            out.println("This host's kernel exposes no RDMA device. Run in the soft-RoCE rig instead:");
            out.println("  ci/rig run bin/verbs4j devices");
            return 1;
        }
        boolean found = false;
        for (DeviceInfo info : devices) {
            if (only != null && !only.equals(info.name())) {
                continue;
            }
            found = true;
            try (Context ctx = Verbs.open(info.name())) {
                print(ctx, info, out);
            } catch (VerbsException e) {
                out.println("hca_id: " + info.name() + "  (cannot open: " + e.getMessage() + ")");
            }
        }
        if (!found) {
            out.println("No device named " + only + "; devices: " + devices.stream().map(DeviceInfo::name).toList());
            return 1;
        }
        return 0;
    }

    private static void print(Context ctx, DeviceInfo info, PrintStream out) {
        DeviceAttributes dev = ctx.queryDevice();
        out.printf("hca_id: %s%n", info.name());
        out.printf("\t%-24s%s%n", "transport:", info.transportType() == 1 ? "iWARP (1)" : "InfiniBand (0)");
        out.printf("\t%-24s%s%n", "fw_ver:", dev.firmwareVersion());
        out.printf("\t%-24s%s%n", "node_guid:", guid(dev.nodeGuid()));
        out.printf("\t%-24s0x%04x%n", "vendor_id:", dev.vendorId());
        out.printf("\t%-24s%d%n", "vendor_part_id:", dev.vendorPartId());
        out.printf("\t%-24s%d%n", "max_qp:", dev.maxQp());
        out.printf("\t%-24s%d%n", "max_cqe:", dev.maxCqe());
        out.printf("\t%-24s%d%n", "max_srq:", dev.maxSrq());
        out.printf("\t%-24s%s%n", "atomic_cap:", dev.supportsAtomics() ? "ATOMIC_HCA (1)" : "ATOMIC_NONE (0)");
        out.printf("\t%-24s%d%n", "phys_port_cnt:", dev.physicalPortCount());
        for (int port = 1; port <= dev.physicalPortCount(); port++) {
            PortAttributes p = ctx.queryPort(port);
            out.printf("\t\tport:\t%d%n", port);
            out.printf("\t\t\t%-20s%s (%d)%n", "state:", p.stateName(), p.state());
            out.printf("\t\t\t%-20s%d (%d)%n", "max_mtu:", PortAttributes.mtuBytes(p.maxMtu()), p.maxMtu());
            out.printf("\t\t\t%-20s%d (%d)%n", "active_mtu:", PortAttributes.mtuBytes(p.activeMtu()), p.activeMtu());
            out.printf("\t\t\t%-20s%d%n", "sm_lid:", p.smLid());
            out.printf("\t\t\t%-20s%d%n", "port_lid:", p.lid());
            out.printf("\t\t\t%-20s%s%n", "link_layer:", p.linkLayerName());
            for (GidEntry gid : ctx.gidTable(port)) {
                out.printf("\t\t\tGID[%3d]:\t\t%s, %s%s%n", gid.index(), gid.formatted(), gid.type().label(),
                        gid.netdev().isEmpty() ? "" : ", " + gid.netdev() + " " + gid.address().getHostAddress());
            }
        }
        out.println();
    }

    private static String guid(long guid) {
        String hex = String.format("%016x", guid);
        return hex.substring(0, 4) + ":" + hex.substring(4, 8) + ":" + hex.substring(8, 12) + ":" + hex.substring(12);
    }
}
