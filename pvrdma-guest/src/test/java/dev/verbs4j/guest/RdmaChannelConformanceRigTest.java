package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.loop.CompletionLoop;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance suite on RDMA: both ends in this JVM on the rig's device (rxe0), RDMA forced so
 * a fallback is a failure, in each completion mode. Sizes and counts are kept small: the rig
 * emulates its CPU.
 */
@Tag("rdma")
@ParameterizedClass
@EnumSource(CompletionMode.class)
class RdmaChannelConformanceRigTest extends ChannelConformanceSuite {
    @Parameter
    CompletionMode mode;

    @Override
    ChannelConfig config(CompletionLoop loop) {
        return ChannelConfig.defaults().transport(TransportPreference.RDMA).loop(loop).maxMessageSize(maxMessage())
                .device(System.getenv().getOrDefault("RIG_DEVICE", "rxe0"))
                .receiveDepth(16).sendQueueDepth(16);
    }

    @Override
    CompletionMode mode() {
        return mode;
    }

    @Override
    TransportKind expectedTransport() {
        return TransportKind.RDMA;
    }

    @Override
    int messageCount() {
        return 40;
    }

    @Override
    public int maxMessage() {
        return 16 * 1024;
    }

    /**
     * Nobody waits on these sends' futures and the peer answers nothing: a stage made from one,
     * a thread polling one and a plain future over one still see them complete. (A loop that
     * sleeps until the peer's next message must not sleep through its own completions for good.)
     * The client has a loop of its own here, which nothing from the server wakes. (RDMA only: a
     * loop sleeping for solicited completions is what could miss them; TCP has no such sleep.)
     */
    @Test
    void sendsCompleteForStagesAndPollersWhileThePeerIsSilent() throws Exception {
        pair.close();
        pair = null;
        CompletionLoop serverLoop = CompletionLoop.start(mode());
        try (CompletionLoop clientLoop = CompletionLoop.start(mode())) {
            pair = ChannelPair.open(address(), config(serverLoop), clientConfig(clientLoop));
            sendsCompleteWhileThePeerIsSilent();
            pair.client().close(); // before its loop stops
        }
    }

    private void sendsCompleteWhileThePeerIsSilent() throws Exception {
        CountDownLatch staged = new CountDownLatch(1);
        letTheLoopSleep();
        pair.client().send(number(1)).thenRun(staged::countDown);
        assertTrue(staged.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the stage of a send never ran");

        letTheLoopSleep();
        CompletableFuture<Void> polled = pair.client().send(number(2));
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!polled.isDone()) {
            assertTrue(System.nanoTime() < deadline, "a polled send never completed");
            Thread.sleep(1);
        }
        assertFalse(polled.isCompletedExceptionally());

        CompletableFuture<Void> plain = new CompletableFuture<>();
        letTheLoopSleep();
        pair.client().send(number(3)).whenComplete((v, e) -> plain.complete(null));
        plain.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        for (int i = 1; i <= 3; i++) {
            assertEquals(i, await(pair.server().receive()).data().get(INT, 0));
        }
    }

    /**
     * The case above is a loop asleep in epoll_wait: a loop that application threads drove
     * looks at its queues every 10 ms for 10 ms after the last one left, and would hide it.
     */
    private static void letTheLoopSleep() throws InterruptedException {
        Thread.sleep(100);
    }
}
