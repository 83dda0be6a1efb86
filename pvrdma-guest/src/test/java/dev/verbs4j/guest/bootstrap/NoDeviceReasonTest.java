package dev.verbs4j.guest.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.probe.RdmaNetns;
import dev.verbs4j.guest.doctor.RecordedTrees;
import org.junit.jupiter.api.Test;

/** The reason a side without devices gives: plain, or naming the namespace when that is why. */
class NoDeviceReasonTest {
    private static final TransportPreference AUTO = TransportPreference.AUTO;
    private static final Capabilities CAN = Capabilities.usable("rxe0", 1, 1, "RoCE v2", -1);

    @Test
    void anExclusiveNamespaceWithoutDevicesSaysSoOnBothSides() {
        RdmaNetns hidden = RdmaNetns.detect(RecordedTrees.tree("exclusive-hidden"), "net:[2]");
        Capabilities none = CapabilitiesProbe.noDevice(hidden);
        assertEquals("tcp (reason: no RDMA device visible in this network namespace (netns mode exclusive))",
                TransportSelector.choose(AUTO, none, AUTO, CAN).describe());
        assertEquals("tcp (reason: peer has no RDMA device visible in its network namespace (netns mode exclusive))",
                TransportSelector.choose(AUTO, CAN, AUTO, none).describe());
    }

    @Test
    void aMachineWithoutRdmaJustHasNoDevice() {
        Capabilities none = CapabilitiesProbe.noDevice(RdmaNetns.detect(RecordedTrees.tree("no-rdma"), ""));
        assertEquals(CapabilitiesGap.NO_DEVICE, none.gap());
        assertEquals("no RDMA device", none.reasonHere());
    }
}
