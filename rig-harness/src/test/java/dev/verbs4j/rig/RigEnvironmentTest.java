package dev.verbs4j.rig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RigEnvironmentTest {
    @Test
    void outsideTheRigTheMessageSaysWhereTheTestRuns() {
        AssertionError e = assertThrows(AssertionError.class, () -> RigEnvironment.of(Map.of()).nvmetNqn());
        assertTrue(e.getMessage().startsWith("RIG_NVMET_NQN is not set: this test runs inside the soft-RoCE rig, in nvmet"),
                e.getMessage());
        assertTrue(e.getMessage().contains("ci/rig run --topology"), e.getMessage());
        assertTrue(e.getMessage().endsWith("RIG_GUEST is not set, so this is not the rig"), e.getMessage());
    }

    @Test
    void inAnotherTopologyTheMessageNamesIt() {
        RigEnvironment single = RigEnvironment.of(Map.of("RIG_GUEST", "1", "RIG_TOPOLOGY", "single"));
        AssertionError e = assertThrows(AssertionError.class, single::pairDevices);
        assertTrue(e.getMessage().contains("in two-hosts"), e.getMessage());
        assertTrue(e.getMessage().endsWith("this is the rig's topology single"), e.getMessage());
    }

    @Test
    void aTestThatNeedsOneTopologyFailsInAnother() {
        RigEnvironment single = RigEnvironment.of(Map.of("RIG_GUEST", "1", "RIG_TOPOLOGY", "single"));
        assertEquals("needs the rig's two-hosts topology (ci/rig run --topology two-hosts ...), got RIG_TOPOLOGY=single",
                assertThrows(AssertionError.class, () -> single.requireTopology("two-hosts")).getMessage());
        assertEquals(single, single.requireTopology("single"));
    }

    @Test
    void valuesAreTrimmedPairsSplitAndNumbersChecked() {
        RigEnvironment twoHosts = RigEnvironment.of(Map.of("RIG_GUEST", "1", "RIG_PAIR_DEVICES", " rxe1  rxe2 ",
                "RIG_PAIR_GID_INDEX", "1", "RIG_ADDR", "10.77.0.1\n", "RIG_GID_INDEX", "x", "RIG_NETNS_PAIR", "nsa"));
        assertTrue(twoHosts.inRig());
        assertEquals(List.of("rxe1", "rxe2"), twoHosts.pairDevices());
        assertEquals(1, twoHosts.pairGidIndex());
        assertEquals("10.77.0.1", twoHosts.address());
        assertEquals("RIG_GID_INDEX is not a number: 'x'",
                assertThrows(AssertionError.class, twoHosts::gidIndex).getMessage());
        assertEquals("RIG_NETNS_PAIR must name two, got 'nsa'",
                assertThrows(AssertionError.class, twoHosts::netnsPair).getMessage());
    }
}
