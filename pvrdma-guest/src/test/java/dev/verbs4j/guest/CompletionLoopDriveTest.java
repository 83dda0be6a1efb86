package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ChannelPair;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.guest.TransportPreference;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Application threads that wait drive the loop ({@link CompletionLoop#drive}): on real loopback
 * sockets, whatever thread ends up running a pass, replies arrive, callbacks never overlap, a
 * close from elsewhere ends a driver's wait, and the loop sleeps again once nobody waits.
 */
class CompletionLoopDriveTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static ChannelPair tcpPair(CompletionLoop loop) throws Exception {
        ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.TCP).loop(loop);
        return ChannelPair.open(config, config);
    }

    @ParameterizedTest
    @EnumSource(CompletionMode.class)
    void twoWaitingThreadsGetEveryReplyAndCallbacksNeverOverlap(CompletionMode mode) throws Exception {
        CompletionLoop loop = CompletionLoop.start(mode);
        AtomicInteger inCallback = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        try (ChannelPair first = tcpPair(loop); ChannelPair second = tcpPair(loop)) {
            for (ChannelPair p : List.of(first, second)) {
                p.server().setListener((channel, message) -> {
                    if (inCallback.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    assertTrue(loop.inLoop(), "a callback runs where the loop runs");
                    channel.send(message.data()); // on the loop: a credit is free or this throws
                    inCallback.decrementAndGet();
                });
            }
            List<CompletableFuture<Integer>> clients = new ArrayList<>();
            for (ChannelPair p : List.of(first, second)) {
                clients.add(CompletableFuture.supplyAsync(() -> pingPong(p, 300), Thread.ofPlatform()::start));
            }
            for (CompletableFuture<Integer> c : clients) {
                assertEquals(300, c.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
            assertEquals(0, overlaps.get(), "callbacks ran one at a time");
        } finally {
            loop.close();
        }
    }

    private static int pingPong(ChannelPair p, int rounds) {
        int ok = 0;
        MemorySegment ping = MemorySegment.ofArray(new int[1]);
        for (int i = 0; i < rounds; i++) {
            ping.set(ValueLayout.JAVA_INT_UNALIGNED, 0, i);
            CompletableFuture<ChannelMessage> reply = p.client().receive();
            p.client().send(ping).join();
            if (reply.join().data().get(ValueLayout.JAVA_INT_UNALIGNED, 0) == i) {
                ok++;
            }
        }
        return ok;
    }

    @ParameterizedTest
    @EnumSource(CompletionMode.class)
    void aCloseFromAnotherThreadEndsADriversWait(CompletionMode mode) throws Exception {
        CompletionLoop loop = CompletionLoop.start(mode);
        try (ChannelPair pair = tcpPair(loop)) {
            CompletableFuture<ChannelMessage> never = pair.client().receive();
            Thread closer = Thread.ofPlatform().start(() -> {
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos()); // let the main thread start waiting
                pair.client().close();
            });
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> never.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertInstanceOf(ChannelException.class, e.getCause());
            closer.join();
        } finally {
            loop.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void afterTheWaitsEndTheLoopSleepsAgain(CompletionMode mode) throws Exception {
        CompletionLoop loop = CompletionLoop.start(mode);
        try (ChannelPair pair = tcpPair(loop)) {
            pair.server().setListener((channel, message) -> channel.send(message.data()));
            assertEquals(200, pingPong(pair, 200));
            // past the loop thread's linger after the last driver and ADAPTIVE's spin, however late a
            // loaded machine schedules them: a loop that kept napping never settles and fails here
            long before = IdleLoops.settledWakeups(loop);
            // an observation window, not a timing assertion: a loop that kept napping would wake hundreds of times
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            assertEquals(before, loop.engine().wakeups(), "an idle loop sleeps until something happens");
        } finally {
            loop.close();
        }
    }
}
