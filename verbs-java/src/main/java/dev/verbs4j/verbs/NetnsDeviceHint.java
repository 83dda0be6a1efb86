package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Why a device name was not found: in the RDMA subsystem's exclusive network-namespace mode a
 * device of another namespace is hidden from this one, which libibverbs cannot tell apart from a
 * device that does not exist. The uverbs character devices in sysfs are not namespaced, so their
 * {@code ibdev} names say whether the device exists somewhere on this machine.
 */
final class NetnsDeviceHint {
    private static final Path NETNS_MODE = Path.of("/sys/module/ib_core/parameters/netns_mode");
    private static final Path UVERBS = Path.of("/sys/class/infiniband_verbs");

    private NetnsDeviceHint() {}

    /** The message and hint for "no device named {@code name}" given the devices visible here. */
    static VerbsException noSuchDevice(String name, List<String> visible) {
        String here = visible.isEmpty() ? "this network namespace has no RDMA device"
                : "devices here: " + String.join(", ", visible);
        if (exclusiveMode()) {
            String message = "no RDMA device named '" + name + "' in this network namespace";
            if (existsOnMachine(name)) {
                message += ": it exists on this machine but belongs to another network namespace";
            }
            return new VerbsException(message + " (netns mode exclusive: devices of other namespaces are hidden)",
                    "ibv_open_device", Errno.ENODEV, here + "; open a device from the namespace it belongs to "
                            + "(ip netns exec NS, or NetworkNamespace.open(NS))");
        }
        return new VerbsException("no RDMA device named '" + name + "'", "ibv_open_device", Errno.ENODEV,
                visible.isEmpty() ? "this host has no RDMA device; use the soft-RoCE rig (ci/rig) or a host with one"
                        : here);
    }

    /** ib_core's netns_mode is a bool named for the default: Y = shared, N = exclusive. */
    static boolean exclusiveMode() {
        return read(NETNS_MODE).map(v -> v.startsWith("N") || v.equals("0")).orElse(false);
    }

    static boolean existsOnMachine(String name) {
        try (DirectoryStream<Path> uverbs = Files.newDirectoryStream(UVERBS, "uverbs*")) {
            for (Path u : uverbs) {
                if (read(u.resolve("ibdev")).filter(name::equals).isPresent()) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
