package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.NetnsMode;
import dev.verbs4j.guest.probe.RdmaCmReadiness;

/** The doctor's checks about RDMA in network namespaces beyond the mode and the device list. */
final class DoctorNetnsChecks {
    private DoctorNetnsChecks() {}

    /** rdma_cm: whether the connection manager serves the ports of this namespace's devices. */
    static DoctorCheck rdmaCm(DoctorFacts f) {
        RdmaCmReadiness cm = f.netns().rdmaCm();
        if (f.devices().isEmpty()) {
            return DoctorCheck.ok("rdma_cm", "no RDMA device here (channels use TCP)");
        }
        if (!cm.checked()) {
            return DoctorCheck.ok("rdma_cm", "not checked (ib_cm not loaded; rdma_cm loads it on first use)");
        }
        if (cm.problems().isEmpty()) {
            return DoctorCheck.ok("rdma_cm", "the connection manager serves every port here");
        }
        return DoctorCheck.warn("rdma_cm", "cannot work here: " + String.join("; ", cm.problems())
                        + (f.netns().mode() == NetnsMode.EXCLUSIVE
                                ? " (the kernel could not recreate QP1 when the device moved to this network namespace)" : "")
                        + ". rdma_connect fails with EINVAL (rping: 'rdma_connect: Invalid argument'); plain verbs and "
                        + "the Channel API work (their bootstrap does not use rdma_cm)",
                "for rdma_cm, create the device from inside the namespace in shared mode (ip netns exec NS rdma link add "
                        + "NAME type rxe netdev IF) instead of moving it with rdma dev set NAME netns NS");
    }
}
