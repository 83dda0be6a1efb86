package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.KernelInfo;
import dev.verbs4j.guest.probe.LibibverbsView;
import dev.verbs4j.guest.probe.ProviderInfo;
import dev.verbs4j.guest.probe.RdmaCoreInfo;
import dev.verbs4j.guest.probe.RdmaDeviceScan;
import dev.verbs4j.guest.probe.RdmaNetns;
import dev.verbs4j.guest.probe.SysfsRoot;
import dev.verbs4j.verbs.MemlockLimit;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The recorded sysfs trees under src/test/resources/sysfs, and doctor facts built on them. */
public final class RecordedTrees {
    static final String NAMESPACE = "net:[4026531840]";

    private RecordedTrees() {}

    public static SysfsRoot tree(String name) {
        try {
            return SysfsRoot.at(Path.of(RecordedTrees.class.getResource("/sysfs/" + name).toURI()));
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("no recorded tree " + name, e);
        }
    }

    /** Facts of a guest with this sysfs, a 6.1 kernel, rdma-core 44 and unlimited memlock. */
    static DoctorFacts facts(String name) {
        return facts(name, LibibverbsView.notChecked(), Optional.of(new MemlockLimit(MemlockLimit.UNLIMITED, MemlockLimit.UNLIMITED)));
    }

    static DoctorFacts facts(String name, LibibverbsView view, Optional<MemlockLimit> memlock) {
        SysfsRoot sys = tree(name);
        List<ProviderInfo> devices = RdmaDeviceScan.scan(sys);
        return new DoctorFacts(name, new KernelInfo("Linux", "amd64", "6.1.0-56-amd64", 64),
                new RdmaCoreInfo(true, "44.0-2", "package libibverbs1", List.of("mlx5", "rxe", "vmw_pvrdma")), memlock,
                RdmaNetns.detect(sys, NAMESPACE), devices, view, DoctorFacts.limitsFromSysfs(devices),
                DoctorFacts.netdevStates(sys, devices));
    }
}
