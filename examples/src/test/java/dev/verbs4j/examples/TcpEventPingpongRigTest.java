package dev.verbs4j.examples;

import dev.verbs4j.guest.CompletionMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Forced-TCP event-mode pingpong in the soft-RoCE rig (a slow, emulated guest where the loop's
 * races show), 20 runs of 300 round trips at 4096 B in one boot: no reset, no hang.
 *
 * <p>Not in {@code ci/test} yet: in the rig its second run still fails (the client's last
 * stream sends end with PEER_CLOSED when the server's close arrives, though the server received
 * them all), so the event-mode TCP failure is not fixed. Run it by hand:
 * {@code ci/rig run mvn -B -o -P rig -pl examples surefire:test -Dtest.groups=rdma-open-bug
 * -Dtest.excludedGroups=none -Dtest=TcpEventPingpongRigTest}.
 */
@Tag("rdma-open-bug")
class TcpEventPingpongRigTest {

    @Test
    void twentyRunsInARowEndCleanlyInTheRig() throws Exception {
        RepeatedTcpPingpong.run(CompletionMode.EVENT, 20, 4096, 300);
    }
}
