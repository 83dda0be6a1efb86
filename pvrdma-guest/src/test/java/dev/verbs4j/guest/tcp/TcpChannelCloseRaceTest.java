package dev.verbs4j.guest.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelPair;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionLoop;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The race a slow machine shows: a sender has written its whole frame and not yet completed its
 * operation when the peer, which took the frame, closes and this side's loop reads the close.
 * Holding the channel's write lock puts this thread exactly where such a sender is; the send made
 * from there must complete, and the channel end with PEER_CLOSED only after it.
 */
class TcpChannelCloseRaceTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aSendWrittenBeforeThePeersCloseIsReadCompletes() throws Exception {
        try (CompletionLoop clientLoop = CompletionLoop.start(CompletionMode.EVENT)) {
            // a plain future: waiting on it does not drive the loop, so the task runs on the loop's own thread
            CompletableFuture<Thread> loopThread = new CompletableFuture<>();
            clientLoop.execute(() -> loopThread.complete(Thread.currentThread()));
            loopThread.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            ChannelConfig serverConfig = ChannelConfig.defaults().transport(TransportPreference.TCP);
            ChannelConfig clientConfig = ChannelConfig.defaults().transport(TransportPreference.TCP).loop(clientLoop);
            ChannelPair pair = ChannelPair.open(serverConfig, clientConfig);
            TcpChannel client = (TcpChannel) pair.client();
            CompletableFuture<Void> sent;
            CompletableFuture<Void> serverClosed;
            synchronized (writeLockOf(client)) {
                serverClosed = CompletableFuture.runAsync(() -> pair.server().close());
                awaitBlocked(loopThread.get());
                // the loop has read the close and waits for this "sender" before it ends the channel
                assertNull(client.endCause(), "the channel ended while a sender held its write lock");
                sent = client.send(MemorySegment.ofArray(new byte[] {1, 2, 3}));
                assertTrue(sent.isDone() && !sent.isCompletedExceptionally(), "the send went at once: " + sent);
            }
            serverClosed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            awaitEnded(client);
            assertEquals(ChannelError.PEER_CLOSED, client.endCause().error());
            assertFalse(sent.isCompletedExceptionally(), "a send that was out is not failed by the close");
            pair.close();
        }
    }

    /** The lock of the channel's {@link FrameWriter}, which a sender holds from its write to its completion. */
    private static Object writeLockOf(TcpChannel channel) throws ReflectiveOperationException {
        return field(FrameWriter.class, "lock", field(TcpChannel.class, "writer", channel));
    }

    private static Object field(Class<?> type, String name, Object of) throws ReflectiveOperationException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(of);
    }

    private static void awaitBlocked(Thread thread) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (thread.getState() != Thread.State.BLOCKED) {
            assertTrue(System.nanoTime() < deadline, "the loop never read the peer's close");
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static void awaitEnded(TcpChannel channel) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (channel.endCause() == null) {
            assertTrue(System.nanoTime() < deadline, "the channel never ended");
            LockSupport.parkNanos(1_000_000);
        }
    }
}
