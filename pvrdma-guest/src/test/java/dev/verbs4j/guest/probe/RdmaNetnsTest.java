package dev.verbs4j.guest.probe;

import dev.verbs4j.guest.doctor.RecordedTrees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RdmaNetnsTest {

    @Test
    void parsesWhatTheRdmaToolPrints() {
        assertEquals(Optional.of(NetnsMode.EXCLUSIVE), RdmaNetns.parseRdmaSystem("netns exclusive copy-on-fork on"));
        assertEquals(Optional.of(NetnsMode.SHARED), RdmaNetns.parseRdmaSystem("netns shared copy-on-fork on\n"));
        assertEquals(Optional.empty(), RdmaNetns.parseRdmaSystem("Object \"system\" is unknown"));
    }

    @Test
    void sharedModeFromTheIbCoreParameter() {
        RdmaNetns ns = RdmaNetns.detect(RecordedTrees.tree("rxe"), "net:[1]");
        assertEquals(NetnsMode.SHARED, ns.mode());
        assertEquals(List.of("rxe0"), ns.visibleDevices());
        assertFalse(ns.devicesElsewhere());
        assertEquals("net:[1]", ns.namespace());
    }

    @Test
    void exclusiveNamespaceWithoutDeviceSeesNoneButKnowsSomeExistElsewhere() {
        RdmaNetns ns = RdmaNetns.detect(RecordedTrees.tree("exclusive-hidden"), "net:[2]");
        assertEquals(NetnsMode.EXCLUSIVE, ns.mode());
        assertEquals(List.of(), ns.visibleDevices());
        assertTrue(ns.devicesElsewhere());
    }

    @Test
    void unknownWhenIbCoreIsNotLoaded() {
        RdmaNetns ns = RdmaNetns.detect(RecordedTrees.tree("no-rdma"), "");
        assertEquals(NetnsMode.UNKNOWN, ns.mode());
        assertFalse(ns.devicesElsewhere());
    }
}
