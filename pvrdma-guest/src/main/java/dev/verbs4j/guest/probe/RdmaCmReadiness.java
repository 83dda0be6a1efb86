package dev.verbs4j.guest.probe;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether rdma_cm can connect through the RDMA devices this namespace sees. The kernel's
 * connection manager (ib_cm) adds its counters ({@code ports/N/cm_rx_msgs}) to every port it serves,
 * and cannot serve a port without QP1, the GSI QP its messages travel on. Linux 7.3's rxe loses
 * QP1 when the device is moved to another network namespace: verbs work there, rdma_cm does not
 * ({@code rdma_connect: Invalid argument}).
 *
 * @param checked  whether sysfs could tell (ib_cm loaded and at least one port seen)
 * @param problems one line per port rdma_cm cannot use, e.g. "rxea port 1: no QP1 ..."
 */
public record RdmaCmReadiness(boolean checked, List<String> problems) {
    private static final String IB_CM = "module/ib_cm";

    /** Copies the list components, so the record is immutable. */
    public RdmaCmReadiness {
        problems = List.copyOf(problems);
    }

    /**
     * Whether the connection manager serves the ports of these devices here.
     *
     * @param sys     where to read the ib_cm counters
     * @param devices the devices visible here
     * @return the readiness; not checked when ib_cm is not loaded or the kernel is too old
     */
    public static RdmaCmReadiness detect(SysfsRoot sys, List<ProviderInfo> devices) {
        // before Linux 5.14 the counters lived in class/infiniband_cm instead: nothing to tell from ports/N
        if (!sys.exists(IB_CM) || sys.exists("class/infiniband_cm") || devices.stream().allMatch(d -> d.ports().isEmpty())) {
            return new RdmaCmReadiness(false, List.of());
        }
        List<String> problems = new ArrayList<>();
        for (ProviderInfo d : devices) {
            for (RdmaPort p : d.ports()) {
                if (!sys.exists("class/infiniband/" + d.name() + "/ports/" + p.number() + "/cm_rx_msgs")) {
                    problems.add(d.name() + " port " + p.number() + ": no QP1 (GSI QP), so the kernel's connection "
                            + "manager cannot use it");
                }
            }
        }
        return new RdmaCmReadiness(true, problems);
    }

    /**
     * Whether rdma_cm can be used here.
     *
     * @return true when it works through at least one port here, or nothing could be checked
     */
    public boolean works() {
        return !checked || problems.isEmpty();
    }

    /**
     * The readiness in one word.
     *
     * @return "yes", "no" or "unknown", as the JSON report says it
     */
    public String label() {
        return !checked ? "unknown" : problems.isEmpty() ? "yes" : "no";
    }
}
