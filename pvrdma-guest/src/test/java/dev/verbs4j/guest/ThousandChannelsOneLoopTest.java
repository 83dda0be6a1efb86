package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.EchoingServer;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A thousand TCP channels alive on one EVENT loop (both ends of each: two thousand sockets in its
 * epoll set): each carries a message there and back when asked, and between the rounds the loop
 * sleeps, however many channels it watches.
 */
class ThousandChannelsOneLoopTest {
    private static final int WANTED = 1000;
    private static final int CONNECTING_THREADS = 8;
    private static final int MAX_MESSAGE = 1024;
    /** fds besides the channels' (the JVM's jars, the loop's epoll and eventfd, the listening socket). */
    private static final int OTHER_FDS = 200;

    @Test
    void aThousandChannelsOnOneLoopAnswerOnDemandAndLeaveItAsleep() throws Exception {
        int channels = channelsTheFdLimitAllows();
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.TCP).loop(loop)
                    .maxMessageSize(MAX_MESSAGE);
            List<Channel> clients = new ArrayList<>();
            try (EchoingServer server = new EchoingServer(config)) {
                clients.addAll(connect(server.port(), config, channels));
                for (int round = 0; round < 2; round++) {
                    long before = IdleLoops.settledWakeups(loop);
                    // an observation window, not a timing assertion: a loop that polls its sockets wakes in it
                    LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
                    assertEquals(before, loop.engine().wakeups(), channels + " idle channels leave the loop asleep");
                    for (int i = 0; i < clients.size(); i++) {
                        exchange(clients.get(i), round * channels + i);
                    }
                }
            } finally {
                clients.forEach(Channel::close);
            }
        }
    }

    /** {@value #WANTED}, or fewer when the soft fd limit is too low for both ends of each (then it says so). */
    private static int channelsTheFdLimitAllows() {
        long limit = OpenFds.softLimit();
        long fit = (limit - OpenFds.count() - OTHER_FDS) / 2;
        if (fit < WANTED) {
            System.out.printf("only %d channels: the soft limit of %d open files holds no more (raise ulimit -n)%n",
                    fit, limit);
            return (int) Math.max(1, fit);
        }
        return WANTED;
    }

    private static List<Channel> connect(int port, ChannelConfig config, int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CONNECTING_THREADS);
        try {
            List<Future<Channel>> connecting = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                connecting.add(pool.submit(() -> ChannelConnector.connect("127.0.0.1", port, config)));
            }
            List<Channel> connected = new ArrayList<>();
            try {
                for (Future<Channel> f : connecting) {
                    connected.add(f.get(60, TimeUnit.SECONDS));
                }
            } catch (Exception e) {
                connected.forEach(Channel::close);
                throw e;
            }
            return connected;
        } finally {
            pool.shutdownNow();
        }
    }

    /** A message of channel-specific bytes there and back, checked. */
    private static void exchange(Channel channel, int seed) throws Exception {
        int length = 1 + seed % MAX_MESSAGE;
        channel.send(ChannelTestBytes.pattern(seed, length)).get(10, TimeUnit.SECONDS);
        ChannelMessage echo = channel.receive().get(10, TimeUnit.SECONDS);
        assertEquals(length, echo.length(), "channel " + seed);
        assertEquals(-1, ChannelTestBytes.mismatch(echo.data(), seed), "channel " + seed + ": first wrong byte");
    }
}
