package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The two-hosts tests fail, rather than skip or pass, outside that topology. */
class RigPairTopologyTest {

    @Test
    void theTwoHostsEnvironmentNamesBothEnds() {
        RigPairTopology t = RigPairTopology.from(Map.of("RIG_TOPOLOGY", "two-hosts", "RIG_PAIR_DEVICES", "rxe1 rxe2",
                "RIG_PAIR_ADDRS", "10.78.0.1 10.78.0.2", "RIG_PAIR_GID_INDEX", "1"));
        assertEquals(new RigPairTopology("rxe1", "rxe2", "10.78.0.1", "10.78.0.2", 1), t);
    }

    @Test
    void anyOtherTopologyFails() {
        assertThrows(AssertionError.class, () -> RigPairTopology.from(Map.of()));
        assertThrows(AssertionError.class, () -> RigPairTopology.from(Map.of("RIG_TOPOLOGY", "single",
                "RIG_PAIR_DEVICES", "rxe1 rxe2", "RIG_PAIR_ADDRS", "10.78.0.1 10.78.0.2", "RIG_PAIR_GID_INDEX", "1")));
        assertThrows(AssertionError.class, () -> RigPairTopology.from(Map.of("RIG_TOPOLOGY", "two-hosts",
                "RIG_PAIR_DEVICES", "rxe1", "RIG_PAIR_ADDRS", "10.78.0.1 10.78.0.2", "RIG_PAIR_GID_INDEX", "1")));
    }
}
