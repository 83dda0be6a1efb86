package dev.verbs4j.examples;

import dev.verbs4j.guest.CompletionMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Forced-TCP event-mode pingpong in the soft-RoCE rig (a slow, emulated guest where the loop's
 * races show), 20 runs of 300 round trips at 4096 B in one boot: no reset, no hang.
 */
@Tag("rdma")
class TcpEventPingpongRigTest {

    @Test
    void twentyRunsInARowEndCleanlyInTheRig() throws Exception {
        RepeatedTcpPingpong.run(CompletionMode.EVENT, 20, 4096, 300);
    }
}
