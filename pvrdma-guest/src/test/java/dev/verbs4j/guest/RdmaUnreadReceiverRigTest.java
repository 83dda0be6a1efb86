package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.rig.RigEnvironment;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link UnreadReceiverTest} on RDMA (rxe0): a receiver that never reads keeps a bounded number of
 * messages and then leaves its receive slots unposted, so the sender's SENDs wait in RNR retries,
 * its credits run out and {@code send} fails with SEND_QUEUE_FULL; once the receiver reads, the
 * slots are posted again and every message arrives in order.
 */
@Tag("rdma")
class RdmaUnreadReceiverRigTest {
    @Test
    void theSenderWaitsThenFailsAndLaterEveryMessageArrivesInOrder() throws Exception {
        String device = RigEnvironment.current().device();
        try (CompletionLoop serverLoop = CompletionLoop.start(CompletionMode.EVENT);
             CompletionLoop clientLoop = CompletionLoop.start(CompletionMode.EVENT);
             ChannelPair pair = ChannelPair.open(
                     UnreadReceiverTest.config(TransportPreference.RDMA, serverLoop).device(device),
                     UnreadReceiverTest.config(TransportPreference.RDMA, clientLoop).device(device))) {
            UnreadReceiverTest.assertSenderHeldBackThenNothingLost(pair.client(), pair.server());
        }
    }
}
