package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ChannelPair;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.guest.TransportPreference;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
        loop.engine().runAndWait(() -> { }, WAIT);
    }

    @Test
    void aTaskFromAnotherThreadWakesABlockedLoopWithOneEventfdWrite() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            for (int i = 0; i < 20; i++) {
                settle(loop);
                long writes = loop.engine().eventfdWrites();
                CompletableFuture<Thread> ran = new CompletableFuture<>();
                Thread.ofPlatform().start(() -> loop.execute(() -> ran.complete(Thread.currentThread())))
                        .join();
                assertTrue(ran.get(WAIT.toSeconds(), TimeUnit.SECONDS).getName().startsWith("verbs4j-loop-event"));
                assertTrue(loop.engine().eventfdWrites() - writes <= 1, "at most one eventfd write per sleep");
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
            assertEquals(0, loop.engine().eventfdWrites(), "a spinning loop is awake: nobody writes its eventfd");
            assertEquals(0, loop.engine().wakeups(), "a spinning loop never blocks");
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
            // past the loop thread's linger after this thread last drove the loop
            long before = IdleLoops.settledWakeups(loop);
            // an observation window, not a timing assertion: a loop with time slices wakes many times in it
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            assertEquals(before, loop.engine().wakeups(), "an idle loop sleeps until something happens");
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void aThreadWaitingInReceiveOnAnIdleChannelLeavesTheLoopAsleep(CompletionMode mode) throws Exception {
        CompletionLoop loop = CompletionLoop.start(mode);
        try (ChannelPair pair = tcpPair(loop); Arena arena = Arena.ofShared()) {
            ReceiveBuffer into = new ReceiveBuffer(arena.allocate(ChannelConfig.defaults().maxMessageSize()));
            pair.client().send(MemorySegment.ofArray(new byte[100]));
            assertTrue(pair.server().receive(into, WAIT), "a first message, read by this thread");
            CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> pair.server().receive(into, WAIT));
            // the socket's read is this thread's now; the loop's timer that gives it back stops within its linger
            long before = IdleLoops.settledWakeups(loop);
            // an observation window, not a timing assertion: a timer that ticks while the thread waits wakes the loop in it
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            assertEquals(before, loop.engine().wakeups(), "a thread waiting in receive on an idle channel leaves the loop asleep");
            pair.client().send(MemorySegment.ofArray(new byte[200]));
            assertTrue(waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(200, into.length());
            // the thread is gone: the loop reads the socket again, for a future
            CompletableFuture<ChannelMessage> next = pair.server().receive();
            pair.client().send(MemorySegment.ofArray(new byte[300]));
            assertEquals(300, next.get(WAIT.toSeconds(), TimeUnit.SECONDS).length());
        }
    }

    /** The kernel id of the loop's own thread: a task it runs while nobody drives it (a plain future drives nothing). */
    private static int loopThreadTid(CompletionLoop loop) throws Exception {
        CompletableFuture<Integer> tid = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                tid.complete(Integer.parseInt(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString()));
            } catch (IOException e) {
                tid.completeExceptionally(e);
            }
        });
        return tid.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** A thread's context switches so far, as the kernel counts them: each one a sleep or a preemption. */
    private static long contextSwitches(int tid) throws IOException {
        long n = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/task/" + tid + "/status"))) {
            if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                n += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return n;
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void aThreadDrivingTheLoopForLongLetsTheLoopThreadSleepAndGivesItBackAsItLeaves(CompletionMode mode)
            throws Exception {
        CompletionLoop loop = CompletionLoop.start(mode);
        try (ChannelPair pair = tcpPair(loop)) {
            int tid = loopThreadTid(loop);
            LinkedBlockingQueue<Integer> heard = new LinkedBlockingQueue<>();
            pair.server().setListener((channel, message) -> heard.add(message.length()));
            CompletableFuture<Void> awaited = loop.engine().newFuture();
            Thread waiter = Thread.ofPlatform().start(awaited::join); // drives the loop while it waits
            // the loop thread naps while a thread drives; after a nap with no driver leaving it sleeps
            LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
            long before = contextSwitches(tid);
            // an observation window, not a timing assertion: a loop thread napping in slices wakes many times in it
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            assertEquals(before, contextSwitches(tid), "the loop thread sleeps while a thread drives the loop");
            loop.execute(() -> awaited.complete(null));
            waiter.join(WAIT.toMillis());
            assertFalse(waiter.isAlive(), "the driving thread got its completion");
            // nobody drives now, and no task wakes the loop thread: it hears the socket only if it took the loop back
            pair.client().send(MemorySegment.ofArray(new byte[123]));
            assertEquals(123, heard.poll(WAIT.toSeconds(), TimeUnit.SECONDS), "the loop thread took the loop back");
        }
    }

    @Test
    void anApplicationThreadsRoundTripsCostAtMostOneEventfdWriteEach() throws Exception {
        CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
        try (ChannelPair pair = tcpPair(loop)) {
            int rounds = 200;
            settle(loop);
            long writes = loop.engine().eventfdWrites();
            for (int i = 0; i < rounds; i++) {
                CompletableFuture<ChannelMessage> reply = pair.client().receive();
                pair.server().receive().thenAccept(m -> pair.server().send(m.data()));
                pair.client().send(MemorySegment.ofArray(new byte[64])).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertEquals(64, reply.get(WAIT.toSeconds(), TimeUnit.SECONDS).length());
            }
            assertTrue(loop.engine().eventfdWrites() - writes <= rounds,
                    "sends write the socket directly: " + (loop.engine().eventfdWrites() - writes) + " eventfd writes");
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
