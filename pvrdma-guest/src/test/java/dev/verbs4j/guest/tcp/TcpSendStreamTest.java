package dev.verbs4j.guest.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ChannelPair;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionLoop;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The TCP channel (TCP_NODELAY, its default) over real loopback sockets, in each mode: a thread
 * sending small messages back to back writes the first few itself, then leaves the rest to the
 * loop, which writes all that queued up at once, in a few TCP segments (TCP_INFO), every message
 * whole and in order; a send that answers the peer goes straight out, done when {@code send}
 * returns.
 */
class TcpSendStreamTest {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final int SIZE = 64;
    /** Within the default send queue depth (32), so no send waits for a slot while the loop is held. */
    private static final int MESSAGES = 24;

    private static ChannelConfig tcp(CompletionMode mode) {
        return ChannelConfig.defaults().transport(TransportPreference.TCP).mode(mode).maxMessageSize(SIZE);
    }

    @ParameterizedTest
    @EnumSource(CompletionMode.class)
    void aStreamOfSmallSendsIsWrittenByTheLoopInOneBatch(CompletionMode mode) throws Exception {
        try (CompletionLoop clientLoop = CompletionLoop.start(mode);
             ChannelPair pair = ChannelPair.open(tcp(mode), tcp(mode).loop(clientLoop));
             Arena arena = Arena.ofConfined()) {
            CompletableFuture<Void> allArrived = expectInOrder(pair.server(), MESSAGES);
            TcpChannel client = (TcpChannel) pair.client();
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            clientLoop.execute(() -> { // the loop writes nothing until released
                held.countDown();
                await(release);
            });
            MemorySegment payload = arena.allocate(SIZE);
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            long before;
            try {
                await(held);
                for (int i = 0; i < MESSAGES; i++) {
                    payload.set(INT, 0, i);
                    sends.add(client.send(payload));
                }
                // the first STREAK go straight out (a few more if the thread paused among them, as
                // a pause starts a new run); then everything waits for the loop, in order behind them
                int straightOut = 0;
                while (straightOut < MESSAGES && sends.get(straightOut).isDone()) {
                    straightOut++;
                }
                assertTrue(straightOut >= SendStreak.STREAK && straightOut <= MESSAGES / 2,
                        straightOut + " of " + MESSAGES + " sends went straight out");
                for (int i = straightOut; i < MESSAGES; i++) {
                    assertFalse(sends.get(i).isDone(), "send " + i + " waits for the loop's batch");
                }
                before = client.segmentsSent();
            } finally {
                release.countDown();
            }
            allArrived.get(60, TimeUnit.SECONDS);
            for (CompletableFuture<Void> send : sends) {
                send.get(60, TimeUnit.SECONDS);
            }
            long segments = client.segmentsSent() - before;
            assertTrue(segments <= 2, "the queued messages left in " + segments + " segments, not in one write");
        }
    }

    @ParameterizedTest
    @EnumSource(CompletionMode.class)
    void aSendAnsweringThePeerGoesStraightOut(CompletionMode mode) throws Exception {
        try (ChannelPair pair = ChannelPair.open(tcp(mode), tcp(mode)); Arena arena = Arena.ofConfined()) {
            pair.server().setListener((channel, message) -> channel.send(message.data()));
            Channel client = pair.client();
            MemorySegment payload = arena.allocate(SIZE);
            for (int i = 0; i < 10 * SendStreak.STREAK; i++) {
                payload.set(INT, 0, i);
                CompletableFuture<ChannelMessage> echo = client.receive();
                assertTrue(client.send(payload).isDone(), "send " + i + " was written before send returned");
                assertEquals(i, echo.get(60, TimeUnit.SECONDS).data().get(INT, 0));
            }
        }
    }

    /** Completes once {@code count} messages arrived whole and numbered 0, 1, 2... in order. */
    private static CompletableFuture<Void> expectInOrder(Channel receiver, int count) {
        AtomicInteger next = new AtomicInteger();
        CompletableFuture<Void> all = new CompletableFuture<>();
        receiver.setListener((channel, message) -> {
            int number = message.data().get(INT, 0);
            if (message.length() != SIZE || number != next.get()) {
                all.completeExceptionally(new AssertionError("message " + next.get() + " arrived as "
                        + number + ", " + message.length() + " bytes"));
            } else if (next.incrementAndGet() == count) {
                all.complete(null);
            }
        });
        return all;
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(60, TimeUnit.SECONDS), "the loop did not get to the task");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
