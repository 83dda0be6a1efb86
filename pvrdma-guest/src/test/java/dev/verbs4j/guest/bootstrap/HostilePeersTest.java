package dev.verbs4j.guest.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.OpenFds;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Thousands of peers that misbehave against one channel server ({@link HostilePeer.Kind}), while
 * a well-behaved client alongside keeps exchanging verified messages over a channel set up
 * before the attack and over fresh ones set up during it. The server stays up; every bad peer
 * sees its connection closed within a bound and gets a refusal that names what was wrong (or,
 * set up with a valid statement, a channel lost for what followed it); no exchange allocates
 * more heap than a bound, no buffer grows to a length a peer made up, and no fd is left open.
 *
 * <p>{@code -Dverbs4j.hostilePeers=N} runs N peers (default 2000, a few seconds).
 */
class HostilePeersTest {
    private static final int PEERS = Integer.getInteger("verbs4j.hostilePeers", 2000);
    private static final int AT_ONCE = 32;
    private static final int BATCH = 200;
    private static final int MAX_MESSAGE = 4096;
    /** The server's whole bootstrap wait: a stalling peer holds a thread this long. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    /** How long a bad peer may wait for the server to close its connection: the time-out and then some. */
    private static final Duration CLOSE_BOUND = CONNECT_TIMEOUT.plusSeconds(10);
    /** Heap one exchange may allocate: its streams and the peer's longest string (64 KiB) with room to spare. */
    private static final long HEAP_PER_EXCHANGE = 1 << 20;
    /** Native memory all the attack may leave behind: far below the made-up lengths (1 GiB and more). */
    private static final long NATIVE_GROWTH = 256L << 20;

    @Test
    void theServerOutlivesHostilePeersAndKeepsServingAGoodClient() throws Exception {
        ChannelConfig clientConfig = ChannelConfig.defaults().transport(TransportPreference.TCP)
                .maxMessageSize(MAX_MESSAGE);
        warmUp(clientConfig);
        long fdsBefore = OpenFds.count();
        long nativeBefore = directMemoryUsed();
        long seed = Long.getLong("verbs4j.hostileSeed", System.nanoTime());
        Random random = new Random(seed);
        Map<HostilePeer.Kind, Integer> counts = new EnumMap<>(HostilePeer.Kind.class);
        int exchanged = 0;
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelConfig serverConfig = ChannelConfig.defaults().transport(TransportPreference.TCP).loop(loop)
                    .maxMessageSize(MAX_MESSAGE).connectTimeout(CONNECT_TIMEOUT);
            ExecutorService peers = Executors.newFixedThreadPool(AT_ONCE);
            try (EchoingServer server = new EchoingServer(serverConfig);
                 Channel longLived = ChannelConnector.connect("127.0.0.1", server.port(), clientConfig)) {
                for (int start = 0; start < PEERS; start += BATCH) {
                    List<Future<String>> batch = new ArrayList<>();
                    for (int i = start; i < Math.min(PEERS, start + BATCH); i++) {
                        HostilePeer.Kind kind = pick(random);
                        counts.merge(kind, 1, Integer::sum);
                        long peerSeed = random.nextLong();
                        int peer = i;
                        batch.add(peers.submit(() -> attack(server, peer, kind, peerSeed)));
                    }
                    // alongside the batch: the channel from before, and a fresh one
                    for (int m = 0; m < 20; m++) {
                        exchange(longLived, random, exchanged++);
                    }
                    try (Channel fresh = ChannelConnector.connect("127.0.0.1", server.port(), clientConfig)) {
                        exchange(fresh, random, exchanged++);
                    }
                    for (Future<String> f : batch) {
                        f.get(2 * CLOSE_BOUND.toSeconds(), TimeUnit.SECONDS);
                    }
                    assertTrue(server.mostHeapAllocatedByOneExchange() < HEAP_PER_EXCHANGE,
                            "one bootstrap exchange allocated " + server.mostHeapAllocatedByOneExchange() + " bytes");
                }
                // every channel the attack set up is still held: what they reserved is still counted
                long grown = directMemoryUsed() - nativeBefore;
                assertTrue(grown < NATIVE_GROWTH, "native memory grew by " + grown + " bytes (seed " + seed + ")");
                exchange(longLived, random, exchanged++);
                List<String> anonymous = server.anonymousOutcomes();
                for (String why : anonymous) {
                    assertTrue(why.contains("the client left before it was set up"), why);
                }
                assertTrue(anonymous.size() <= counts.getOrDefault(HostilePeer.Kind.NOTHING_THEN_CLOSED, 0),
                        "connections lost before their address was known: " + anonymous);
            } finally {
                peers.shutdownNow();
            }
        }
        assertEquals(HostilePeer.Kind.values().length, counts.size(), "every kind of peer ran: " + counts);
        OpenFds.awaitNoMoreThan(fdsBefore, "the attack left fds open");
        System.out.printf("%d hostile peers %s, %d verified exchanges alongside (seed %d)%n", PEERS, counts,
                exchanged, seed);
    }

    /** One bad peer, and the server's word on it: the refusal, or how the channel it got ended. */
    private static String attack(EchoingServer server, int peer, HostilePeer.Kind kind, long seed) throws Exception {
        InetSocketAddress address = HostilePeer.run(server.port(), peer, kind, new Random(seed), CLOSE_BOUND);
        if (kind == HostilePeer.Kind.NOTHING_THEN_CLOSED) {
            // gone before the server may have learned its address: then it is an anonymous outcome
            return "";
        }
        String outcome = server.outcome(address).get(CLOSE_BOUND.toSeconds(), TimeUnit.SECONDS);
        assertTrue(outcome.contains(kind.expected), kind + " (seed " + seed + "): " + outcome);
        assertTrue(!outcome.contains("\n") && outcome.length() < 1000, kind + ": an outcome to log: " + outcome);
        return outcome;
    }

    /** Peers that stall hold a server thread for the time-out: fewer of them, so the run stays short. */
    private static HostilePeer.Kind pick(Random random) {
        HostilePeer.Kind[] kinds = HostilePeer.Kind.values();
        while (true) {
            HostilePeer.Kind k = kinds[random.nextInt(kinds.length)];
            if (!k.stalls || random.nextInt(10) == 0) {
                return k;
            }
        }
    }

    /** One message of a random size there and back; the echo must be the bytes sent. */
    private static void exchange(Channel channel, Random random, int seed) throws Exception {
        int length = 1 + random.nextInt(MAX_MESSAGE);
        byte[] sent = new byte[length];
        for (int i = 0; i < length; i++) {
            sent[i] = (byte) (seed * 31 + i);
        }
        channel.send(MemorySegment.ofArray(sent)).get(10, TimeUnit.SECONDS);
        ChannelMessage back = channel.receive().get(10, TimeUnit.SECONDS);
        assertEquals(length, back.length(), "exchange " + seed);
        long mismatch = MemorySegment.ofArray(sent).mismatch(back.data());
        assertEquals(-1, mismatch, "exchange " + seed + ": first wrong byte");
    }

    /** One server and client before the count: the JDK's and the library's first-use fds are then open. */
    private static void warmUp(ChannelConfig clientConfig) throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
             EchoingServer server = new EchoingServer(clientConfig.loop(loop));
             Channel client = ChannelConnector.connect("127.0.0.1", server.port(), clientConfig.loop(null))) {
            exchange(client, new Random(1), 0);
            HostilePeer.run(server.port(), 0, HostilePeer.Kind.RANDOM_BYTES, new Random(1), CLOSE_BOUND);
        }
    }

    private static long directMemoryUsed() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(p -> p.getName().equals("direct")).mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
    }
}
