package dev.verbs4j.guest.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionMode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A listener that answers each message with {@code offer} from the loop, while the peer's next
 * message is already in the ring: the credits of the answers the peer has taken come back within
 * the loop's batch of records, so the offer finds one. (The peer, fast enough, keeps a batch going
 * for as long as the answers flow; taking the credits back only after the batch ran the answering
 * side out of them after a few round trips with two credits.)
 */
class ShmListenerEchoTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    @Test
    void aListenerThatOffersItsAnswersNeverRunsOutOfCredits() throws Exception {
        ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.SHM).mode(CompletionMode.EVENT)
                .maxMessageSize(64).sendQueueDepth(2);
        AtomicInteger refused = new AtomicInteger();
        try (ChannelServer server = ChannelServer.listen("127.0.0.1", 0, config);
             Arena arena = Arena.ofShared()) {
            CompletableFuture<Channel> connecting = CompletableFuture.supplyAsync(
                    () -> ChannelConnector.connect("127.0.0.1", server.port(), config));
            try (Channel echo = server.accept(WAIT);
                 Channel client = connecting.get(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                MemorySegment answer = arena.allocate(64);
                echo.setListener(new ChannelListener() {
                    @Override
                    public void onMessage(Channel channel, MemorySegment buffer, long offset, int length,
                                          boolean hasImmediate, int immediate) {
                        MemorySegment.copy(buffer, offset, answer, 0, length);
                        if (!channel.offer(answer.asSlice(0, length), false, 0)) {
                            refused.incrementAndGet(); // the client then waits in vain, and the test says so
                        }
                    }

                    @Override
                    public void onMessage(Channel channel, ChannelMessage message) {
                        throw new IllegalStateException("the in-place listener was handed a copy");
                    }
                });
                MemorySegment request = arena.allocate(64);
                ReceiveBuffer reply = new ReceiveBuffer(arena.allocate(64));
                for (int i = 0; i < 20_000; i++) {
                    request.set(java.lang.foreign.ValueLayout.JAVA_INT, 0, i);
                    assertTrue(client.offer(request, false, 0), "the client's offer " + i);
                    assertTrue(client.receive(reply, WAIT), "answer " + i + " (" + refused.get() + " offers refused)");
                    assertEquals(i, reply.memory().get(java.lang.foreign.ValueLayout.JAVA_INT, 0));
                }
            }
        }
        assertEquals(0, refused.get(), "the listener's offers refused");
    }
}
