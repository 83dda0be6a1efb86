package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A thread in {@link Channel#send} on a TCP channel (EVENT and ADAPTIVE) whose native payload the
 * socket takes only part of waits until the socket has the rest, writing it from the caller's
 * memory, as a blocking socket's writer does. These tests fill the socket: both ends sending at
 * once while one-sided writes need this side's answers, and a sender waiting past its send
 * time-out, whose memory is reused at once.
 */
class TcpSenderWaitTest {
    private static final int MAX = 256 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static ChannelConfig config(CompletionMode mode) {
        return ChannelConfig.defaults().transport(TransportPreference.TCP).mode(mode).maxMessageSize(MAX);
    }

    private static CompletableFuture<Void> sendFromOneBuffer(Channel channel, int count) {
        return sendFromOneBuffer(channel, count, new AtomicInteger());
    }

    /**
     * Sends {@code count} full-size messages from one native buffer, refilled with pattern i
     * before message i; {@code sent} counts the sends that returned.
     */
    private static CompletableFuture<Void> sendFromOneBuffer(Channel channel, int count, AtomicInteger sent) {
        return CompletableFuture.runAsync(() -> {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment buffer = arena.allocate(MAX);
                for (int i = 0; i < count; i++) {
                    ChannelTestBytes.fill(buffer, i);
                    channel.send(buffer, i);
                    sent.incrementAndGet();
                }
                ChannelTestBytes.fill(buffer, -1); // what is still queued must not be this
            }
        });
    }

    private static void assertPattern(MemorySegment data, int immediate, int i) {
        assertEquals(i, immediate, "message " + i + " out of order");
        assertEquals(MAX, data.byteSize(), "length of message " + i);
        assertEquals(-1, ChannelTestBytes.mismatch(data, i), "bytes of message " + i);
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void bothEndsFillingTheirSocketsGetEverythingThroughWhileEachWritesIntoTheOther(CompletionMode mode)
            throws Exception {
        int count = 48; // 12 MiB each way: more than loopback's socket buffers hold
        try (ChannelPair pair = ChannelPair.open(config(mode), config(mode))) {
            CompletableFuture<Void> clientSent = sendFromOneBuffer(pair.client(), count);
            CompletableFuture<Void> serverSent = sendFromOneBuffer(pair.server(), count);
            // each one-sided write needs the peer's loop to answer while the peer's sender waits on the socket
            CompletableFuture<Void> clientWrote = writeIntoPeer(pair.client(), pair.server());
            CompletableFuture<Void> serverWrote = writeIntoPeer(pair.server(), pair.client());
            CompletableFuture.allOf(clientSent, serverSent, clientWrote, serverWrote).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            for (Channel receiver : List.of(pair.server(), pair.client())) {
                for (int i = 0; i < count; i++) {
                    ChannelMessage m = receiver.receive().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    assertPattern(m.data(), m.immediate(), i);
                }
            }
        }
    }

    /** 64 one-sided writes of 64 bytes from {@code writer} into a region of {@code peer}, each awaited, then checked. */
    private static CompletableFuture<Void> writeIntoPeer(Channel writer, Channel peer) {
        return CompletableFuture.runAsync(() -> {
            try (RegisteredRegion target = peer.register(64 * 64); RegisteredRegion source = writer.register(64)) {
                for (int i = 0; i < 64; i++) {
                    source.memory().fill((byte) i);
                    writer.write(source, 0, target.remote(), target.remote().address() + i * 64L, 64)
                            .get(WAIT.toSeconds(), TimeUnit.SECONDS);
                }
                for (int i = 0; i < 64; i++) {
                    assertEquals((byte) i, target.memory().get(ValueLayout.JAVA_BYTE, i * 64L + 63), "write " + i);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void aSenderPastItsTimeOutLeavesTheRestQueuedAndMayReuseItsMemoryAtOnce(CompletionMode mode) throws Exception {
        int count = 64; // 16 MiB: the stalled peer's socket buffers fill, and a send waits out its time-out
        CountDownLatch stall = new CountDownLatch(1);
        CompletableFuture<Void> allArrived = new CompletableFuture<>();
        List<AssertionError> wrong = new ArrayList<>();
        ChannelConfig client = config(mode).sendTimeout(Duration.ofMillis(200)).sendQueueDepth(count);
        try (ChannelPair pair = ChannelPair.open(config(mode), client)) {
            pair.server().setListener(new ChannelListener() {
                private int seen;

                @Override
                public void onMessage(Channel channel, ChannelMessage message) {
                    try {
                        stall.await(); // the server's loop reads nothing meanwhile
                        assertPattern(message.data(), message.immediate(), seen);
                    } catch (AssertionError e) {
                        wrong.add(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    if (++seen == count) {
                        allArrived.complete(null);
                    }
                }
            });
            sendFromOneBuffer(pair.client(), count).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            stall.countDown();
            allArrived.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(wrong.isEmpty(), () -> wrong.get(0).getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void aCloseFromAnotherThreadEndsASendWaitingOnAFullSocket(CompletionMode mode) throws Exception {
        CountDownLatch stall = new CountDownLatch(1);
        ChannelConfig client = config(mode).closeTimeout(Duration.ofMillis(500));
        try (ChannelPair pair = ChannelPair.open(config(mode), client)) {
            pair.server().setListener((channel, message) -> {
                try {
                    stall.await(); // the server's loop reads nothing meanwhile: the client's socket fills
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            AtomicInteger sent = new AtomicInteger();
            CompletableFuture<Void> sending = sendFromOneBuffer(pair.client(), 1000, sent); // 250 MiB: it must wait
            while (sent.get() < 4 && !sending.isDone()) {
                Thread.onSpinWait();
            }
            assertTrue(sent.get() >= 4, "the first sends went out");
            pair.client().close(); // waits out its close time-out for the sends in flight, the sender meanwhile on the socket
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> sending.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertInstanceOf(ChannelException.class, e.getCause());
            stall.countDown();
        } finally {
            stall.countDown();
        }
    }
}
