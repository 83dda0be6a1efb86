package dev.verbs4j.guest.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.NetnsThread;
import dev.verbs4j.verbs.DeviceInfo;
import dev.verbs4j.verbs.Verbs;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The probe behind the transport choice, run on a thread of the rig's namespace without a device,
 * finds no device for the right reason, while the same probe on a thread of the init namespace
 * finds rxe0 usable: a channel's fallback there comes from the namespace, not from a broken rig.
 * Needs the rig's no-rdma topology (see ChannelConformanceNetnsRigTest).
 */
@Tag("rdma-netns")
class CapabilitiesNetnsRigTest {
    @Test
    void theProbeOnANamespaceThreadSeesNoDeviceWhileTheInitNamespaceSeesOne() throws Exception {
        String namespace = NetnsThread.rigNamespaceWithoutRdma();
        String here = NetnsThread.currentThreadNamespace();
        Capabilities local = CapabilitiesProbe.probe(null, -1, 1 << 20);
        assertTrue(local.canRdma(), "the init namespace sees a usable device: " + local);

        record View(String namespace, List<String> devices, Capabilities probe) {}
        View view = NetnsThread.supply(NetnsThread.named(namespace), () -> new View(NetnsThread.currentThreadNamespace(),
                Verbs.devices().stream().map(DeviceInfo::name).toList(), CapabilitiesProbe.probe(null, -1, 1 << 20)))
                .get(60, TimeUnit.SECONDS);
        System.out.println("init thread " + here + " probe: " + local);
        System.out.println("netns thread " + view.namespace() + " devices: " + view.devices() + " probe: " + view.probe());
        assertNotEquals(here, view.namespace(), "the thread moved to another network namespace");
        assertEquals(List.of(), view.devices(), "libibverbs lists no device on the namespace's thread");
        assertEquals(CapabilitiesGap.NO_DEVICE_IN_NETNS, view.probe().gap(), view.probe().toString());
        assertEquals("no RDMA device visible in this network namespace (netns mode exclusive)", view.probe().reasonHere());
    }
}
