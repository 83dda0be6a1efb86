package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A receiver whose application never reads: its inbox keeps a bounded backlog (64 KiB here) and then
 * takes no more (TCP leaves the rest in the socket, shm in the ring), so the sender's queue fills
 * and {@code send} fails with SEND_QUEUE_FULL after its send time-out instead of the receiver
 * copying without end. When the receiver reads at last, every message the sender got a future
 * for arrives, whole and in order, and the sender may send again. (RDMA holds its receive slots
 * instead: {@link RdmaUnreadReceiverRigTest}.)
 */
class UnreadReceiverTest {
    /** Far more than the queues, the inbox and loopback TCP's socket buffers hold of 1 KiB messages. */
    static final int MORE_THAN_ANY_BUFFER = 50_000;
    static final int SIZE = 1024;

    /** Far shorter than the receiver's pause: a peer that answers but does not read is not a lost one. */
    static final Duration PEER_LOSS = Duration.ofMillis(500);

    static ChannelConfig config(TransportPreference transport, CompletionLoop loop) {
        return ChannelConfig.defaults().transport(transport).loop(loop).maxMessageSize(SIZE).receiveDepth(8).receiveBacklog(64 * 1024)
                .sendQueueDepth(8).sendTimeout(Duration.ofSeconds(1)).peerLossTimeout(PEER_LOSS);
    }

    @ParameterizedTest
    @EnumSource(value = TransportPreference.class, names = {"TCP", "SHM"})
    void theSenderWaitsThenFailsAndLaterEveryMessageArrivesInOrder(TransportPreference transport) throws Exception {
        try (CompletionLoop serverLoop = CompletionLoop.start(CompletionMode.EVENT);
             CompletionLoop clientLoop = CompletionLoop.start(CompletionMode.EVENT);
             ChannelPair pair = ChannelPair.open(config(transport, serverLoop), config(transport, clientLoop))) {
            assertSenderHeldBackThenNothingLost(pair.client(), pair.server());
        }
    }

    /** {@code sender} streams numbered messages to {@code receiver}, which reads none until the sender is refused. */
    static void assertSenderHeldBackThenNothingLost(Channel sender, Channel receiver) throws Exception {
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        ChannelException refused = null;
        while (refused == null && sent.size() < MORE_THAN_ANY_BUFFER) {
            try {
                sent.add(sender.send(numbered(sent.size())));
            } catch (ChannelException e) {
                refused = e;
            }
        }
        assertTrue(refused != null, "the receiver took " + sent.size() + " messages its application never read");
        assertEquals(ChannelError.SEND_QUEUE_FULL, refused.error(), refused.getMessage());
        System.out.println(receiver.transport().kind() + ": the sender was held back after " + sent.size()
                + " messages: " + refused.getMessage());
        Thread.sleep(4 * PEER_LOSS.toMillis()); // the receiver goes on not reading: its peer must not count as lost
        for (int i = 0; i < sent.size(); i++) {
            ChannelMessage m = receiver.receive().get(30, TimeUnit.SECONDS);
            assertEquals(SIZE, m.length(), "message " + i);
            assertEquals(i, ByteBuffer.wrap(m.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).getInt(),
                    "in order, none lost");
            assertEquals(-1, ChannelTestBytes.mismatch(m.data().asSlice(4), i), "message " + i + " whole");
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        sender.send(numbered(sent.size())).get(30, TimeUnit.SECONDS);
        assertEquals(sent.size(), ByteBuffer.wrap(receiver.receive().get(30, TimeUnit.SECONDS).data()
                .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).getInt(), "and the stream goes on");
    }

    /** SIZE bytes: the number, then pattern {@code n}. */
    private static java.lang.foreign.MemorySegment numbered(int n) {
        java.lang.foreign.MemorySegment m = java.lang.foreign.MemorySegment.ofArray(new byte[SIZE]);
        ChannelTestBytes.fill(m.asSlice(4), n);
        m.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), 0, n);
        return m;
    }
}
