package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.NetnsMode;
import dev.verbs4j.guest.probe.RdmaNetns;
import dev.verbs4j.guest.probe.SysfsRoot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.verbs4j.guest.RigProcess;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The doctor in a network namespace that owns no RDMA device, in exclusive mode: what a guest on a
 * host without RDMA sees. Needs the rig's no-rdma topology and is selected by its own tag:
 * <pre>ci/rig run --topology no-rdma mvn -B -o -ntp -P rig -Dtest.groups=rdma-netns -pl pvrdma-guest surefire:test</pre>
 * Inside the rig with any other topology it fails instead of passing vacuously.
 */
@Tag("rdma-netns")
class DoctorNetnsRigTest {
    private static final String COMMAND =
            "ci/rig run --topology no-rdma mvn -B -o -ntp -P rig -Dtest.groups=rdma-netns -pl pvrdma-guest surefire:test";
    private static String netns;

    @BeforeAll
    static void requireNoRdmaTopology() {
        // On a plain host (no rig) this class is not applicable; the rig run below is where it counts.
        assumeTrue(System.getenv("RIG_GUEST") != null, "runs only in the rig's no-rdma topology: " + COMMAND);
        if (!"no-rdma".equals(System.getenv("RIG_TOPOLOGY")) || System.getenv("RIG_NETNS") == null) {
            fail("needs the no-rdma topology (RIG_TOPOLOGY=" + System.getenv("RIG_TOPOLOGY") + "): " + COMMAND);
        }
        netns = System.getenv("RIG_NETNS");
    }

    @Test
    void insideTheNamespaceTheDoctorSaysTcpBecauseNoDeviceIsVisible() throws IOException, InterruptedException {
        RigProcess r = RigProcess.run(List.of("ip", "netns", "exec", netns, RigProcess.launcher().toString(), "doctor", "--json"));
        System.out.println(r.output());
        JsonCheck.validate(r.output().trim());
        assertEquals(0, r.exitCode(), "no device here is TCP by design, not a blocking problem: " + r.output());
        String json = r.output();
        assertTrue(json.contains("\"verdict\":{\"transport\":\"tcp\""), json);
        assertTrue(json.contains("\"reason\":\"no RDMA device visible in this network namespace (netns mode exclusive;"), json);
        assertTrue(json.contains("\"mode\":\"exclusive\""), json);
        assertTrue(json.contains("\"visibleDevices\":[]"), json);
        assertTrue(json.contains("\"devices\":[]"), json);
        assertFalse(json.contains("\"namespace\":\"" + RdmaNetns.currentNamespace() + "\""),
                "the subprocess ran in another namespace: " + json);
    }

    @Test
    void theInitNamespaceStillSeesTheDeviceInExclusiveMode() {
        DoctorReport report = Doctor.run(SysfsRoot.system());
        System.out.print(report.toText());
        assertEquals(NetnsMode.EXCLUSIVE, report.facts().netns().mode());
        assertEquals("rdma", report.verdict().transport(), report.toText());
        assertEquals(System.getenv().getOrDefault("RIG_DEVICE", "rxe0"), report.verdict().device());
        assertNotEquals("", report.facts().netns().namespace());
    }
}
