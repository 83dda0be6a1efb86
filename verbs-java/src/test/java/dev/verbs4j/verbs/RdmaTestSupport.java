package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.rig.RigEnvironment;
import java.util.List;

/**
 * Opens the soft-RoCE rig's device for the tests that need one (the rest of the rig, its
 * environment, commands and resource counts, is the shared harness, dev.verbs4j.rig). Finding no
 * device there is a failure, never a skip.
 */
public final class RdmaTestSupport {
    private RdmaTestSupport() {}

    /** Opens the rig's device, failing loudly when there is none. */
    public static Context openDevice() {
        List<DeviceInfo> devices = Verbs.devices();
        if (devices.isEmpty()) {
            fail("no RDMA device visible: the tests tagged 'rdma' must run inside the soft-RoCE rig "
                    + "(ci/rig run mvn -o -P rig surefire:test); the rig is not up");
        }
        String name = RigEnvironment.current().device();
        if (devices.stream().noneMatch(d -> d.name().equals(name))) {
            fail("device " + name + " not found; present: " + devices);
        }
        return Verbs.open(name);
    }
}
