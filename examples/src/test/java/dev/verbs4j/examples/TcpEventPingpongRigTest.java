package dev.verbs4j.examples;

import dev.verbs4j.loop.CompletionMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Forced-TCP event-mode pingpong in the soft-RoCE rig (a slow, emulated guest where the loop's
 * races show), 15 runs of 300 round trips at 4096 B in one boot: no reset, no hang, and every
 * stream send completes even when the peer's close is read before the sender has marked its send
 * done (the race {@code TcpChannel.end} waits out).
 */
@Tag("rdma")
class TcpEventPingpongRigTest {

    @Test
    void fifteenRunsInARowEndCleanlyInTheRig() throws Exception {
        RepeatedTcpPingpong.run(CompletionMode.EVENT, 15, 4096, 300);
    }
}
