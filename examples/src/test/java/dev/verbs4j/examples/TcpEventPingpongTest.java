package dev.verbs4j.examples;

import dev.verbs4j.loop.CompletionMode;
import org.junit.jupiter.api.Test;

/** Forced-TCP event-mode pingpong, 20 runs of 300 round trips at 4096 B, on this host's loopback. */
class TcpEventPingpongTest {

    @Test
    void twentyRunsInARowEndCleanly() throws Exception {
        RepeatedTcpPingpong.run(CompletionMode.EVENT, 20, 4096, 300);
    }
}
