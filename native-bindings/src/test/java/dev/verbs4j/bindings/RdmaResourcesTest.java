package dev.verbs4j.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code rdma resource show} parsing used by the device smoke test, on sample iproute2 6.1 output. */
class RdmaResourcesTest {

    private static final String PDS = """
            dev rxe0 users 2 pdn 1 comm [ib_core]
            dev rxe0 local_dma_lkey 0x0 users 2 pdn 2 ctxn 0 pid 4242 comm java
            dev rxe1 users 1 pdn 3 ctxn 1 pid 4242 comm java
            dev rxe0 users 1 pdn 4 ctxn 2 pid 77 comm ibv_rc_pingpong
            """;

    private static final String QPS = """
            link rxe0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core]
            link rxe0/1 lqpn 17 type RC state INIT sq-psn 0 pdn 2 pid 4242 comm java
            """;

    @Test
    void countsOnlyTheGivenProcessOnTheGivenDevice() {
        assertEquals(1, RdmaResources.countOwned(PDS, Set.of("4242"), "rxe0"));
        assertEquals(1, RdmaResources.countOwned(PDS, Set.of("4242"), "rxe1"));
        assertEquals(0, RdmaResources.countOwned(PDS, Set.of("4243"), "rxe0"));
        assertEquals(2, RdmaResources.countOwned(PDS, Set.of("4242", "77"), "rxe0"));
    }

    @Test
    void theCallingThreadOfThisProcessIsAmongItsOwnerIds() throws Exception {
        assertTrue(RdmaResources.threadIdsOfThisProcess().contains(Long.toString(ProcessHandle.current().pid())));
    }

    @Test
    void readsTheDeviceOfQueuePairsFromTheLink() {
        assertEquals(1, RdmaResources.countOwned(QPS, Set.of("4242"), "rxe0"));
        assertEquals(0, RdmaResources.countOwned("", Set.of("4242"), "rxe0"));
    }
}
