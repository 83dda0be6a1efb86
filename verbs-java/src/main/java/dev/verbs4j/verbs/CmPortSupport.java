package dev.verbs4j.verbs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the kernel's connection manager serves a port. ib_cm adds its counters
 * ({@code ports/N/cm_rx_msgs}) to every port it attaches to; it cannot attach where the port has no
 * QP1 (the GSI QP that carries CM messages). Linux 7.3's rxe loses QP1 when the device is moved to
 * another network namespace ("Couldn't create ib_mad QP1"): plain verbs still work there, rdma_cm
 * does not, and {@code rdma_connect} fails with EINVAL. Reads the calling thread's {@code /sys}.
 * Stateless and thread-safe.
 */
public final class CmPortSupport {
    private static final Path CLASS = Path.of("/sys/class/infiniband");
    private static final Path IB_CM = Path.of("/sys/module/ib_cm");
    private static final Path OLD_LAYOUT = Path.of("/sys/class/infiniband_cm");

    private CmPortSupport() {}

    /**
     * Why rdma_cm cannot work on this port, or empty when it can (or when sysfs cannot tell).
     *
     * @param device the RDMA device name, e.g. {@code rxe0}
     * @param port   the port number, from 1
     * @return a sentence naming the problem, or empty
     */
    public static Optional<String> problem(String device, int port) {
        Path dir = CLASS.resolve(device).resolve("ports").resolve(Integer.toString(port));
        // before Linux 5.14 the counters lived in /sys/class/infiniband_cm instead: nothing to tell from ports/N
        if (!Files.isDirectory(dir) || !Files.isDirectory(IB_CM) || Files.exists(OLD_LAYOUT)
                || Files.exists(dir.resolve("cm_rx_msgs"))) {
            return Optional.empty();
        }
        return Optional.of("port " + port + " of " + device + " has no QP1 (GSI QP), so the kernel's connection "
                + "manager cannot send or receive CM messages there" + (NetnsDeviceHint.exclusiveMode()
                        ? " (the kernel could not recreate QP1 when the device moved to this network namespace)" : ""));
    }

    /** The hint for a failed rdma_cm call on {@code device}/{@code port}, or null when QP1 is not the cause. */
    static String hint(String device, int port) {
        return problem(device, port).map(p -> "rdma_cm cannot work here: " + p + "; plain verbs work (exchange QP "
                + "numbers and GIDs out of band, as the Channel API's bootstrap does)").orElse(null);
    }
}
