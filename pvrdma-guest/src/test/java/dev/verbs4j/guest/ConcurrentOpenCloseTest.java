package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.EchoingServer;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A hundred TCP channels opened, used and closed from eight threads at once, half of them on a
 * loop they share and half each on a loop of its own: every one works, the server sees each end
 * as the peer's close, and no fd (socket, epoll, eventfd) is left open afterwards.
 */
class ConcurrentOpenCloseTest {
    private static final int CHANNELS = 100;
    private static final int THREADS = 8;

    @Test
    void aHundredChannelsOpenedAndClosedFromEightThreadsLeaveNothingOpen() throws Exception {
        ChannelConfig own = ChannelConfig.defaults().transport(TransportPreference.TCP);
        openUseClose(own, 1); // the first use of each part opens what stays open (jars, /dev/urandom)
        long before = OpenFds.count();
        List<String> outcomes = new ArrayList<>();
        try (CompletionLoop serverLoop = CompletionLoop.start(CompletionMode.EVENT);
             CompletionLoop shared = CompletionLoop.start(CompletionMode.EVENT);
             EchoingServer server = new EchoingServer(own.loop(serverLoop))) {
            ChannelConfig onShared = ChannelConfig.defaults().transport(TransportPreference.TCP).loop(shared);
            ChannelConfig onItsOwn = ChannelConfig.defaults().transport(TransportPreference.TCP);
            AtomicInteger opened = new AtomicInteger();
            ExecutorService threads = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<List<InetSocketAddress>>> work = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    work.add(threads.submit(() -> {
                        List<InetSocketAddress> mine = new ArrayList<>();
                        for (int n; (n = opened.getAndIncrement()) < CHANNELS; ) {
                            try (Channel c = ChannelConnector.connect("127.0.0.1", server.port(),
                                    n % 2 == 0 ? onShared : onItsOwn)) {
                                exchange(c, n);
                                mine.add(c.localAddress());
                            }
                        }
                        return mine;
                    }));
                }
                for (Future<List<InetSocketAddress>> f : work) {
                    for (InetSocketAddress client : f.get(120, TimeUnit.SECONDS)) {
                        outcomes.add(server.outcome(client).get(30, TimeUnit.SECONDS));
                    }
                }
            } finally {
                threads.shutdownNow();
            }
        }
        assertEquals(CHANNELS, outcomes.size());
        for (String outcome : outcomes) {
            assertTrue(outcome.equals("ended CLOSED: "), "the server's end of a closed channel: " + outcome);
        }
        OpenFds.awaitNoMoreThan(before, CHANNELS + " channels opened and closed");
    }

    private static void openUseClose(ChannelConfig config, int seed) throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
             EchoingServer server = new EchoingServer(ChannelConfig.defaults().transport(TransportPreference.TCP)
                     .loop(loop));
             Channel c = ChannelConnector.connect("127.0.0.1", server.port(), config)) {
            exchange(c, seed);
        }
    }

    private static void exchange(Channel channel, int seed) throws Exception {
        int length = 1 + seed * 97 % 4096;
        channel.send(ChannelTestBytes.pattern(seed, length)).get(10, TimeUnit.SECONDS);
        ChannelMessage echo = channel.receive().get(10, TimeUnit.SECONDS);
        assertEquals(length, echo.length(), "channel " + seed);
        assertEquals(-1, ChannelTestBytes.mismatch(echo.data(), seed), "channel " + seed + ": first wrong byte");
    }
}
