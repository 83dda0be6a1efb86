package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.verbs.RemoteRegion;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A thread in {@link Channel#receive(ReceiveBuffer, Duration)} on a TCP channel reads the socket
 * itself (EVENT and ADAPTIVE), a message's payload straight into a native buffer. These are the
 * paths the conformance suite does not force: payloads cut across reads, time-outs in the middle
 * of one, frames other than messages met by the receiving thread, a close from another thread,
 * and the loop taking the socket back for futures and listeners.
 */
class TcpDirectReceiveTest {
    private static final int MAX = 256 * 1024;
    private static final int[] SIZES = {0, 1, 10, 4096, 65536 + 3, MAX};
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static ChannelPair open(CompletionMode mode) throws Exception {
        ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.TCP).mode(mode).maxMessageSize(MAX);
        return ChannelPair.open(config, config);
    }

    /** Sends messages of every size, each with its index as immediate, from another thread. */
    private static CompletableFuture<Void> sendAll(Channel channel, int count) {
        return CompletableFuture.runAsync(() -> {
            for (int i = 0; i < count; i++) {
                channel.send(ChannelTestBytes.pattern(i, SIZES[i % SIZES.length]), i);
            }
        });
    }

    private static void assertMessage(ReceiveBuffer into, int i) {
        assertEquals(SIZES[i % SIZES.length], into.length(), "length of message " + i);
        assertEquals(-1, ChannelTestBytes.mismatch(into.message(), i), "bytes of message " + i);
        assertTrue(into.hasImmediate(), "message " + i);
        assertEquals(i, into.immediate(), "message " + i + " out of order");
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void messagesOfEverySizeArriveWholeAndInOrderIntoNativeAndHeapBuffers(CompletionMode mode) throws Exception {
        int count = 120;
        try (ChannelPair pair = open(mode); Arena arena = Arena.ofShared()) {
            ReceiveBuffer nativeBuffer = new ReceiveBuffer(arena.allocate(MAX));
            ReceiveBuffer heapBuffer = new ReceiveBuffer(MemorySegment.ofArray(new byte[MAX]));
            CompletableFuture<Void> sent = sendAll(pair.client(), count);
            for (int i = 0; i < count; i++) {
                ReceiveBuffer into = i % 3 == 2 ? heapBuffer : nativeBuffer; // heap memory is read into the channel's buffer
                assertTrue(pair.server().receive(into, WAIT), "message " + i);
                assertMessage(into, i);
            }
            sent.get(30, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void receivesThatTimeOutMidMessageLoseNoByte(CompletionMode mode) throws Exception {
        int count = 60;
        try (ChannelPair pair = open(mode); Arena arena = Arena.ofShared()) {
            ReceiveBuffer into = new ReceiveBuffer(arena.allocate(MAX));
            CompletableFuture<Void> sent = sendAll(pair.client(), count);
            int timeouts = 0;
            for (int i = 0; i < count; i++) {
                while (!pair.server().receive(into, Duration.ofNanos(200_000))) { // often inside a 256 KiB payload
                    timeouts++;
                    assertTrue(timeouts < 1_000_000, "no progress");
                }
                assertMessage(into, i);
            }
            sent.get(30, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void aPeerWriteIsServedWhileAThreadWaitsInReceive(CompletionMode mode) throws Exception {
        try (ChannelPair pair = open(mode);
             RegisteredRegion target = pair.server().register(8192);
             RegisteredRegion source = pair.client().register(8192)) {
            ChannelTestBytes.fill(source.memory(), 42);
            ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[MAX]));
            CompletableFuture<Boolean> received = CompletableFuture.supplyAsync(() -> pair.server().receive(into, WAIT));
            RemoteRegion remote = target.remote();
            // only the receiving thread reads the server's socket now: it serves the write
            pair.client().write(source, 0, remote, remote.address(), 8192).get(30, TimeUnit.SECONDS);
            pair.client().send(ChannelTestBytes.pattern(7, 100));
            assertTrue(received.get(30, TimeUnit.SECONDS));
            assertEquals(100, into.length());
            assertEquals(-1, ChannelTestBytes.mismatch(target.memory(), 42), "the written bytes");
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void closingFromAnotherThreadEndsAReceiveWaitingInTheRead(CompletionMode mode) throws Exception {
        try (ChannelPair pair = open(mode)) {
            ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[MAX]));
            LinkedBlockingQueue<String> started = new LinkedBlockingQueue<>();
            CompletableFuture<Boolean> received = CompletableFuture.supplyAsync(() -> {
                started.add("in");
                return pair.server().receive(into, Duration.ofSeconds(120));
            });
            started.take();
            pair.server().close();
            ExecutionException e = assertThrows(ExecutionException.class, () -> received.get(30, TimeUnit.SECONDS),
                    "the close must end a receive that waits in the socket's read");
            ChannelException cause = (ChannelException) e.getCause();
            assertTrue(cause.error() == ChannelError.CLOSED || cause.error() == ChannelError.PEER_CLOSED, cause.toString());
            assertFalse(pair.server().isOpen());
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void futuresAndListenersStillGetMessagesAfterADirectReceive(CompletionMode mode) throws Exception {
        try (ChannelPair pair = open(mode)) {
            ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[MAX]));
            pair.client().send(ChannelConformanceSuite.number(1));
            assertTrue(pair.server().receive(into, WAIT));
            // the loop gets the socket back: for a future that waits now
            CompletableFuture<ChannelMessage> next = pair.server().receive();
            pair.client().send(ChannelConformanceSuite.number(2));
            assertEquals(2, next.get(30, TimeUnit.SECONDS).data().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            assertFalse(pair.server().receive(into, Duration.ofMillis(20)), "nothing sent"); // the thread reads again
            LinkedBlockingQueue<Integer> heard = new LinkedBlockingQueue<>();
            pair.server().setListener((channel, message) -> heard.add(message.data().get(ValueLayout.JAVA_INT_UNALIGNED, 0)));
            pair.client().send(ChannelConformanceSuite.number(3));
            assertEquals(3, heard.poll(30, TimeUnit.SECONDS), "and for a listener set after a direct receive");
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void messagesReadBehindAThreadsOwnReachTheFuturesAndTheListenerAfterIt(CompletionMode mode) throws Exception {
        try (ChannelPair pair = open(mode)) {
            for (int i = 0; i < 6; i++) { // out together: one read takes several
                pair.client().offer(ChannelConformanceSuite.number(i), false, 0);
            }
            ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[MAX]));
            assertTrue(pair.server().receive(into, WAIT));
            assertEquals(0, into.memory().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            for (int i = 1; i < 3; i++) {
                assertEquals(i, pair.server().receive().get(30, TimeUnit.SECONDS).data().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            }
            assertTrue(pair.server().receive(into, WAIT));
            assertEquals(3, into.memory().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            LinkedBlockingQueue<Integer> heard = new LinkedBlockingQueue<>();
            pair.server().setListener((channel, message) -> heard.add(message.data().get(ValueLayout.JAVA_INT_UNALIGNED, 0)));
            assertEquals(4, heard.poll(30, TimeUnit.SECONDS));
            assertEquals(5, heard.poll(30, TimeUnit.SECONDS));
        }
    }
}
