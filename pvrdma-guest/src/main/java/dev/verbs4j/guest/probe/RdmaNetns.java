package dev.verbs4j.guest.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The RDMA view of the current network namespace: the subsystem's mode, which namespace this is,
 * and which devices it sees. In exclusive mode a namespace without a device behaves exactly like
 * a guest whose host has no RDMA: the device list is empty.
 *
 * @param mode           shared or exclusive
 * @param modeSource     where the mode was read
 * @param namespace      this process's network namespace, e.g. {@code net:[4026531840]}; "" if unknown
 * @param visibleDevices the RDMA devices this namespace sees
 * @param machineDevices uverbs devices of the whole machine (not namespaced in sysfs)
 * @param rdmaCm         whether rdma_cm can connect through the visible devices
 */
public record RdmaNetns(NetnsMode mode, String modeSource, String namespace, List<String> visibleDevices,
        int machineDevices, RdmaCmReadiness rdmaCm) {
    private static final String IB_CORE = "module/ib_core";
    private static final String PARAMETER = IB_CORE + "/parameters/netns_mode";
    private static final Pattern RDMA_SYSTEM = Pattern.compile("netns\\s+(shared|exclusive)");

    /** Copies the device list, so the record is immutable. */
    public RdmaNetns {
        visibleDevices = List.copyOf(visibleDevices);
    }

    /**
     * Without the rdma_cm check (recorded facts).
     *
     * @param mode           shared or exclusive
     * @param modeSource     where the mode was read
     * @param namespace      this process's network namespace; "" if unknown
     * @param visibleDevices the RDMA devices this namespace sees
     * @param machineDevices uverbs devices of the whole machine
     */
    public RdmaNetns(NetnsMode mode, String modeSource, String namespace, List<String> visibleDevices,
            int machineDevices) {
        this(mode, modeSource, namespace, visibleDevices, machineDevices, new RdmaCmReadiness(false, List.of()));
    }

    /**
     * Reads the live system (the namespace from /proc/self/ns/net).
     *
     * @param sys where to read; a recorded tree gets "" for the namespace
     * @return the view
     */
    public static RdmaNetns detect(SysfsRoot sys) {
        return detect(sys, sys.isLive() ? currentNamespace() : "");
    }

    /**
     * Reads a sysfs root; {@code namespace} names the namespace it belongs to.
     *
     * @param sys       where to read
     * @param namespace the namespace's identity, "" if unknown
     * @return the view
     */
    public static RdmaNetns detect(SysfsRoot sys, String namespace) {
        NetnsMode mode = NetnsMode.UNKNOWN;
        String source = "";
        Optional<String> parameter = sys.read(PARAMETER);
        if (parameter.isPresent()) {
            // ib_core's netns_mode is a bool named for the default: Y = shared, N = exclusive.
            mode = parameter.get().startsWith("Y") || parameter.get().equals("1") ? NetnsMode.SHARED : NetnsMode.EXCLUSIVE;
            source = sys.path(PARAMETER).toString();
        } else if (sys.isLive() && sys.exists(IB_CORE)) {
            // Only with ib_core loaded: without it there is no RDMA subsystem to ask (the tool's
            // netlink socket is refused), and a channel's connect probes this every time: a tool
            // started per connect costs a process, and under an exhausted open-file limit JDK 25's
            // ProcessBuilder, failing to make its pipes, closed fd 0, by then a channel's socket.
            Optional<NetnsMode> fromTool = Commands.output(List.of("rdma", "system", "show")).flatMap(RdmaNetns::parseRdmaSystem);
            if (fromTool.isPresent()) {
                mode = fromTool.get();
                source = "rdma system show";
            }
        }
        List<ProviderInfo> devices = RdmaDeviceScan.scan(sys);
        List<String> visible = devices.stream().map(ProviderInfo::name).toList();
        return new RdmaNetns(mode, source, namespace, visible, RdmaDeviceScan.uverbsDeviceCount(sys),
                RdmaCmReadiness.detect(sys, devices));
    }

    /**
     * Reads the mode in what {@code rdma system show} prints.
     *
     * @param output e.g. "netns exclusive copy-on-fork on"
     * @return the mode (EXCLUSIVE for that example), empty when the output names none
     */
    public static Optional<NetnsMode> parseRdmaSystem(String output) {
        Matcher m = RDMA_SYSTEM.matcher(output);
        return m.find() ? Optional.of(NetnsMode.valueOf(m.group(1).toUpperCase())) : Optional.empty();
    }

    /**
     * The identity of this process's network namespace.
     *
     * @return the target of /proc/self/ns/net, e.g. {@code net:[4026531840]}; "" if unknown
     */
    public static String currentNamespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return "";
        }
    }

    /**
     * Whether some RDMA devices of this machine live in another namespace (they exist but are not ours).
     *
     * @return true when the machine has more uverbs devices than this namespace sees
     */
    public boolean devicesElsewhere() {
        return machineDevices > visibleDevices.size();
    }
}
