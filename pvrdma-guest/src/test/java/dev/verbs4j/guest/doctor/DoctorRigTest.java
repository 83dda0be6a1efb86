package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.NetnsMode;
import dev.verbs4j.guest.probe.ProviderInfo;
import dev.verbs4j.guest.probe.ProviderLimits;
import dev.verbs4j.guest.probe.RdmaNetns;
import dev.verbs4j.guest.probe.RdmaProvider;
import dev.verbs4j.guest.probe.SysfsRoot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.guest.RigProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The doctor on the rig's real rxe0 (any rig topology; the device is always in the init namespace). */
@Tag("rdma")
class DoctorRigTest {
    private static DoctorReport report;

    @BeforeAll
    static void runDoctor() {
        if (System.getenv("RIG_GUEST") == null) {
            fail("device tests run inside the soft-RoCE rig: ci/rig run mvn -B -o -P rig -pl pvrdma-guest surefire:test");
        }
        report = Doctor.run(SysfsRoot.system());
        System.out.print(report.toText());
    }

    private static String env(String name, String fallback) {
        return System.getenv().getOrDefault(name, fallback);
    }

    private static DoctorCheck check(String name) {
        return report.checks().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no check " + name + " in\n" + report.toText()));
    }

    @Test
    void verdictIsRdmaOnTheRigDeviceAndItsRoceV2Ipv4Gid() {
        String device = env("RIG_DEVICE", "rxe0");
        int gidIndex = Integer.parseInt(env("RIG_GID_INDEX", "1"));
        DoctorVerdict v = report.verdict();
        assertEquals("rdma", v.transport(), report.toText());
        assertEquals(device, v.device());
        assertEquals(1, v.port());
        assertEquals(gidIndex, v.gidIndex());
        assertEquals("RoCE v2", v.gidType());
        assertEquals(env("RIG_ADDR", v.gid()), v.gid());
        assertEquals("transport: rdma (" + device + ", GID index " + gidIndex + ", RoCE v2)", v.line());
        assertEquals(0, report.exitCode(), report.toText());
    }

    @Test
    void kernelIsNewEnoughForNamespaces() {
        DoctorCheck kernel = check("kernel");
        assertEquals(CheckStatus.OK, kernel.status());
        assertTrue(kernel.detail().startsWith("6.1."), kernel.detail());
    }

    @Test
    void memlockIsUnlimitedInTheRig() {
        DoctorCheck memlock = check("memlock");
        assertEquals(CheckStatus.OK, memlock.status());
        assertTrue(memlock.detail().startsWith("unlimited"), memlock.detail());
    }

    @Test
    void rxeIsSeenBySysfsAndLibibverbsAndQueried() {
        ProviderInfo rxe = report.facts().devices().stream().filter(d -> d.name().equals(env("RIG_DEVICE", "rxe0")))
                .findFirst().orElseThrow();
        assertEquals(RdmaProvider.RXE, rxe.provider());
        assertTrue(report.facts().libibverbs().devices().contains(rxe.name()), report.facts().libibverbs().toString());
        ProviderLimits limits = report.facts().limits().get(rxe.name());
        assertTrue(limits.reported(), "ibv_query_device answered");
        assertTrue(limits.completionVectors() >= 1, limits.toString());
        assertEquals(CheckStatus.OK, check(rxe.name() + " provider").status());
    }

    @Test
    void netnsModeMatchesTheTopologyAndTheRdmaTool() throws IOException, InterruptedException {
        NetnsMode expected = "no-rdma".equals(System.getenv("RIG_TOPOLOGY")) ? NetnsMode.EXCLUSIVE : NetnsMode.SHARED;
        RdmaNetns ns = report.facts().netns();
        assertEquals(expected, ns.mode());
        Process p = new ProcessBuilder("rdma", "system", "show").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(expected, RdmaNetns.parseRdmaSystem(out).orElseThrow(), out);
        assertEquals(RdmaNetns.currentNamespace(), ns.namespace());
        assertTrue(ns.namespace().startsWith("net:["), ns.namespace());
        assertTrue(ns.visibleDevices().contains(env("RIG_DEVICE", "rxe0")), ns.visibleDevices().toString());
    }

    @Test
    void launcherPrintsTheSameVerdict() throws IOException, InterruptedException {
        RigProcess result = RigProcess.run(List.of(RigProcess.launcher().toString(), "doctor"));
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains(report.verdict().line()), result.output());
    }
}
