package dev.verbs4j.guest.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ChannelPair;
import dev.verbs4j.guest.CompletionMode;
import dev.verbs4j.guest.TransportPreference;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The loop's one wait on real fds of this host (epoll, eventfd, loopback TCP sockets): who wakes
 * it and how often, counted by the loop itself (never by timing).
 */
class CompletionLoopWakeupTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static ChannelPair tcpPair(CompletionLoop loop) throws Exception {
        ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.TCP).loop(loop);
        return ChannelPair.open(config, config);
    }

    /** Runs a no-op on the loop from this thread and waits for it: afterwards the loop has nothing left to do. */
    private static void settle(CompletionLoop loop) {
        loop.runAndWait(() -> { }, WAIT);
    }

    @Test
    void aTaskFromAnotherThreadWakesABlockedLoopWithOneEventfdWrite() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            for (int i = 0; i < 20; i++) {
                settle(loop);
                long writes = loop.eventfdWrites();
                CompletableFuture<Thread> ran = new CompletableFuture<>();
                Thread.ofPlatform().start(() -> loop.execute(() -> ran.complete(Thread.currentThread())))
                        .join();
                assertTrue(ran.get(WAIT.toSeconds(), TimeUnit.SECONDS).getName().startsWith("verbs4j-loop-event"));
                assertTrue(loop.eventfdWrites() - writes <= 1, "at most one eventfd write per sleep");
            }
        }
    }

    @Test
    void aBusyLoopIsNeverWokenThroughTheEventfd() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.BUSY_POLL)) {
            for (int i = 0; i < 200; i++) {
                // a plain future: waiting on it does not drive the loop, whose thread keeps spinning
                CompletableFuture<Void> ran = new CompletableFuture<>();
                loop.execute(() -> ran.complete(null));
                ran.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            assertEquals(0, loop.eventfdWrites(), "a spinning loop is awake: nobody writes its eventfd");
            assertEquals(0, loop.wakeups(), "a spinning loop never blocks");
        }
    }

    @Test
    void anIdleEventLoopWithOpenChannelsDoesNotWakeUp() throws Exception {
        CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
        try (ChannelPair pair = tcpPair(loop)) {
            // some traffic first, so both sockets have been read and written
            for (int i = 0; i < 50; i++) {
                pair.client().send(MemorySegment.ofArray(new byte[100])).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                pair.server().receive().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            settle(loop);
            // past the loop thread's linger after this thread last drove the loop (10 ms)
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
            long before = loop.wakeups();
            // an observation window, not a timing assertion: a loop with time slices wakes many times in it
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            assertEquals(before, loop.wakeups(), "an idle loop sleeps until something happens");
        }
    }

    @Test
    void anApplicationThreadsRoundTripsCostAtMostOneEventfdWriteEach() throws Exception {
        CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
        try (ChannelPair pair = tcpPair(loop)) {
            int rounds = 200;
            settle(loop);
            long writes = loop.eventfdWrites();
            for (int i = 0; i < rounds; i++) {
                CompletableFuture<ChannelMessage> reply = pair.client().receive();
                pair.server().receive().thenAccept(m -> pair.server().send(m.data()));
                pair.client().send(MemorySegment.ofArray(new byte[64])).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertEquals(64, reply.get(WAIT.toSeconds(), TimeUnit.SECONDS).length());
            }
            assertTrue(loop.eventfdWrites() - writes <= rounds,
                    "sends write the socket directly: " + (loop.eventfdWrites() - writes) + " eventfd writes");
        }
    }

    @Test
    void closeFromAnotherThreadEndsTheChannelWithTrafficInFlight() throws Exception {
        CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
        try (ChannelPair pair = tcpPair(loop); Arena arena = Arena.ofShared()) {
            MemorySegment big = arena.allocate(60_000);
            AtomicLong sent = new AtomicLong();
            List<CompletableFuture<Void>> last = new ArrayList<>();
            Thread sender = Thread.ofPlatform().start(() -> {
                try {
                    while (true) {
                        CompletableFuture<Void> f = pair.client().send(big);
                        synchronized (last) {
                            last.add(f);
                        }
                        sent.incrementAndGet();
                    }
                } catch (ChannelException closed) {
                    // the channel closed under the sender: what this test waits for
                }
            });
            while (sent.get() < 100) {
                Thread.onSpinWait();
            }
            long t0 = System.nanoTime();
            Thread closer = Thread.ofPlatform().start(() -> pair.client().close());
            closer.join(WAIT.toMillis());
            long closeMicros = (System.nanoTime() - t0) / 1000;
            assertFalse(closer.isAlive(), "close returned");
            sender.join(WAIT.toMillis());
            assertFalse(sender.isAlive(), "the sender saw the channel close");
            assertFalse(pair.client().isOpen());
            synchronized (last) {
                for (CompletableFuture<Void> f : last) {
                    try {
                        f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        assertInstanceOf(ChannelException.class, e.getCause());
                    }
                }
            }
            System.out.printf("close with %d sends of 60000 B issued took %d us%n", sent.get(), closeMicros);
        }
    }
}
