package dev.verbs4j.guest.tcp;

import dev.verbs4j.unix.testing.EpollSets;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ChannelPair;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.guest.TransportPreference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The TCP channel over real loopback sockets: in EVENT mode, in a process that may use more than
 * one CPU, a one-way stream takes the receiving socket out of the loop's epoll set while it lasts
 * (the loop polls it, as the kernel's own listing shows) and puts it back after, every message
 * whole and in order; a listener that answers each message, or a loop that spins (BUSY,
 * ADAPTIVE), leaves it in the set throughout, as does a process on one CPU.
 */
class TcpReceiveStreamTest {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final int SIZE = 4096;
    private static final int MESSAGES = 20_000;
    /** Every this many messages the listener asks the kernel whether the socket is in the set. */
    private static final int LOOK_EVERY = 250;

    private static ChannelConfig tcp(CompletionMode mode) {
        return ChannelConfig.defaults().transport(TransportPreference.TCP).mode(mode).maxMessageSize(SIZE);
    }

    @Test
    void aOneWayStreamIsPolledOutOfTheSetAndRejoinsItAfter() throws Exception {
        try (ChannelPair pair = ChannelPair.open(tcp(CompletionMode.EVENT), tcp(CompletionMode.EVENT))) {
            int fd = ((TcpChannel) pair.server()).socketFd();
            assertEquals(1, EpollSets.holding(fd), "before the stream: in the loop's set");
            AtomicInteger looksOutOfSet = new AtomicInteger();
            AtomicInteger arrived = new AtomicInteger();
            CompletableFuture<Void> inOrder = expectInOrder(pair.server(), fd, looksOutOfSet, arrived, false);
            // a cold JVM may send slower than a stream's pace at first: go on until the loop polls
            int sent = 0;
            do {
                stream(pair.client(), sent, MESSAGES);
                sent += MESSAGES;
            } while (looksOutOfSet.get() == 0 && sent < 20 * MESSAGES && ReceiveStream.SEVERAL_CPUS);
            awaitArrived(arrived, sent, inOrder);
            if (ReceiveStream.SEVERAL_CPUS) {
                assertTrue(looksOutOfSet.get() > 0, "the loop polled the stream: the socket was out of its set at "
                        + looksOutOfSet.get() + " of " + sent / LOOK_EVERY + " looks");
            } else {
                assertEquals(0, looksOutOfSet.get(), "on one CPU a stream is not polled: the socket stays in the set");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (EpollSets.holding(fd) != 1 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(100_000); // a poll that finds nothing puts it back
            }
            assertEquals(1, EpollSets.holding(fd), "after the stream: back in the loop's set");
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"BUSY_POLL", "ADAPTIVE"})
    void aSpinningLoopLeavesAStreamInTheSet(CompletionMode mode) throws Exception {
        try (ChannelPair pair = ChannelPair.open(tcp(mode), tcp(mode))) {
            int fd = ((TcpChannel) pair.server()).socketFd();
            AtomicInteger looksOutOfSet = new AtomicInteger();
            AtomicInteger arrived = new AtomicInteger();
            CompletableFuture<Void> inOrder = expectInOrder(pair.server(), fd, looksOutOfSet, arrived, false);
            stream(pair.client(), 0, MESSAGES);
            awaitArrived(arrived, MESSAGES, inOrder);
            assertEquals(0, looksOutOfSet.get(), "a spinning loop is never woken by the sender: nothing to poll");
        }
    }

    @Test
    void aListenerThatAnswersKeepsTheSocketInTheSet() throws Exception {
        try (ChannelPair pair = ChannelPair.open(tcp(CompletionMode.EVENT), tcp(CompletionMode.EVENT));
             Arena arena = Arena.ofConfined()) {
            int fd = ((TcpChannel) pair.server()).socketFd();
            AtomicInteger looksOutOfSet = new AtomicInteger();
            expectInOrder(pair.server(), fd, looksOutOfSet, new AtomicInteger(), true);
            MemorySegment payload = arena.allocate(SIZE);
            int roundTrips = 20 * LOOK_EVERY;
            for (int i = 0; i < roundTrips; i++) {
                payload.set(INT, 0, i);
                CompletableFuture<ChannelMessage> echo = pair.client().receive();
                pair.client().send(payload);
                assertEquals(i, echo.get(60, TimeUnit.SECONDS).data().get(INT, 0));
            }
            assertEquals(0, looksOutOfSet.get(), "round trips are no stream: the socket stays in the set");
        }
    }

    /** Sends {@code count} messages numbered from {@code first}, back to back (send waits while its queue is full). */
    private static void stream(Channel client, int first, int count) throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment payload = arena.allocate(SIZE);
            CompletableFuture<Void> last = null;
            for (int i = first; i < first + count; i++) {
                payload.set(INT, 0, i);
                payload.set(INT, SIZE - 4, ~i);
                last = client.send(payload);
            }
            last.get(60, TimeUnit.SECONDS);
        }
    }

    /** Waits until {@code count} messages arrived, failing with what the listener found out of order. */
    private static void awaitArrived(AtomicInteger arrived, int count, CompletableFuture<Void> inOrder)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (arrived.get() < count && !inOrder.isDone() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(100_000); // not a spin: the loop and the sender need the CPUs
        }
        if (inOrder.isCompletedExceptionally()) {
            inOrder.get(); // throws what the listener found
        }
        assertEquals(count, arrived.get(), "messages arrived");
    }

    /**
     * Checks that messages arrive whole and in order, counting them in {@code arrived} (fails the
     * future at the first that does not; answering, sends each back); every
     * {@link #LOOK_EVERY}th, counts whether the socket is out of the set.
     */
    private static CompletableFuture<Void> expectInOrder(Channel receiver, int fd, AtomicInteger looksOutOfSet,
                                                         AtomicInteger arrived, boolean answer) {
        CompletableFuture<Void> failed = new CompletableFuture<>();
        receiver.setListener((channel, message) -> {
            MemorySegment data = message.data();
            int number = data.get(INT, 0);
            if (message.length() != SIZE || number != arrived.get() || data.get(INT, SIZE - 4) != ~number && !answer) {
                failed.completeExceptionally(new AssertionError("message " + arrived.get() + " arrived as " + number
                        + ", " + message.length() + " bytes"));
                return;
            }
            if (number % LOOK_EVERY == 0) {
                try {
                    if (EpollSets.holding(fd) == 0) {
                        looksOutOfSet.incrementAndGet();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            if (answer) {
                channel.send(data);
            }
            arrived.incrementAndGet();
        });
        return failed;
    }
}
