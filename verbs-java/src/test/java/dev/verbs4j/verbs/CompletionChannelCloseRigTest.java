package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Closing a completion channel while another thread waits on it: the waiter gets null or an
 * IllegalStateException at once, never a hang or a wait on a destroyed channel, and the close
 * itself succeeds.
 */
@Tag("rdma")
class CompletionChannelCloseRigTest {
    private static final int ROUNDS = 100;
    /** far longer than any test run: a waiter still blocked when this passes was never woken */
    private static final Duration FOREVER = Duration.ofMinutes(10);

    @Test
    void closeEndsAnAwaitBlockedInPoll() throws Exception {
        try (Context ctx = RdmaTestSupport.openDevice()) {
            CompletionChannel channel = ctx.createCompletionChannel();
            CompletableFuture<Object> outcome = new CompletableFuture<>();
            Thread waiter = Thread.ofPlatform().name("channel-waiter").start(() -> awaitInto(channel, outcome));
            awaitBlockedInPoll(waiter);
            channel.close();
            assertNull(outcome.get(60, TimeUnit.SECONDS), "the blocked await was ended by the close and saw no event");
            assertTrue(channel.isClosed());
            assertThrows(IllegalStateException.class, () -> channel.await(Duration.ZERO), "await after close");
            assertThrows(IllegalStateException.class, channel::takeEvent, "takeEvent after close");
        }
    }

    @Test
    void closeRacesWithAwaitRoundAfterRound() throws Exception {
        int woken = 0;
        int refused = 0;
        try (Context ctx = RdmaTestSupport.openDevice()) {
            for (int round = 0; round < ROUNDS; round++) {
                CompletionChannel channel = ctx.createCompletionChannel();
                CompletableFuture<Object> outcome = new CompletableFuture<>();
                Thread.ofPlatform().start(() -> awaitInto(channel, outcome));
                channel.close(); // before, during or (not at all) after the await begins
                Object result = outcome.get(60, TimeUnit.SECONDS);
                if (result == null) {
                    woken++;
                } else if (result instanceof IllegalStateException) {
                    refused++;
                } else {
                    fail("round " + round + ": the await returned " + result);
                }
            }
        }
        System.out.println("await racing close: " + woken + " woken, " + refused + " refused");
    }

    /** Completes {@code outcome} with the await's result, or with the IllegalStateException it threw. */
    private static void awaitInto(CompletionChannel channel, CompletableFuture<Object> outcome) {
        try {
            outcome.complete(channel.await(FOREVER));
        } catch (IllegalStateException e) {
            outcome.complete(e);
        } catch (Throwable t) {
            outcome.completeExceptionally(t);
        }
    }

    /** Waits until {@code waiter} is inside the poll(2) of an await (its stack shows it). */
    private static void awaitBlockedInPoll(Thread waiter) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (Arrays.stream(waiter.getStackTrace()).noneMatch(f -> f.getClassName().endsWith(".ReadableWait")
                && f.getMethodName().equals("await"))) {
            if (System.nanoTime() > deadline || !waiter.isAlive()) {
                fail("the waiter never blocked in await: " + Arrays.toString(waiter.getStackTrace()));
            }
            Thread.sleep(1);
        }
    }
}
