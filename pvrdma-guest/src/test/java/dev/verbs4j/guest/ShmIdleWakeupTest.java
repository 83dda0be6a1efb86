package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A shared-memory channel that carries nothing costs its loop nothing: no periodic wake-ups, in
 * EVENT and (once its spin is over) ADAPTIVE, with or without a thread waiting in receive; the
 * next message still wakes it. Counted by the loop itself, never timed.
 */
class ShmIdleWakeupTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @ParameterizedTest
    @EnumSource(value = CompletionMode.class, names = {"EVENT", "ADAPTIVE"})
    void anIdleChannelLeavesTheLoopAsleepUntilTheNextMessage(CompletionMode mode) throws Exception {
        CompletionLoop loop = CompletionLoop.start(mode);
        ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.SHM).loop(loop);
        try (ChannelPair pair = ChannelPair.open(config, config); Arena arena = Arena.ofShared()) {
            for (int i = 0; i < 50; i++) {
                pair.client().send(MemorySegment.ofArray(new byte[100])).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                pair.server().receive().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            long before = IdleLoops.settledWakeups(loop);
            // an observation window, not a timing assertion: a loop that naps or polls wakes many times in it
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            assertEquals(before, loop.engine().wakeups(), "an idle loop sleeps until something happens");

            ReceiveBuffer into = new ReceiveBuffer(arena.allocate(ChannelConfig.defaults().maxMessageSize()));
            CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> pair.server().receive(into, WAIT));
            long waitingBefore = IdleLoops.settledWakeups(loop);
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
            assertEquals(waitingBefore, loop.engine().wakeups(), "a thread waiting in receive leaves the loop asleep");
            pair.client().send(MemorySegment.ofArray(new byte[200]));
            assertTrue(waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS), "the next message wakes it");
            assertEquals(200, into.length());
        }
    }
}
