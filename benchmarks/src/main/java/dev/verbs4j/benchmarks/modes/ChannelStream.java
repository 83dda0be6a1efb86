package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * One stream over a channel (TCP unless the caller forces another transport) on loopback: the client sends {@code count} messages (send()
 * waits while the send queue is full), the server counts them on its loop and answers once it has
 * them all. Each end has its own completion loop, as two processes would. Setup is not timed.
 */
final class ChannelStream {

    private ChannelStream() {}

    /**
     * Payload megabytes (10^6 bytes) per second. {@code noDelay}: the channels' TCP_NODELAY (their
     * default); off, Nagle packs the small messages as it does for plain NIO.
     */
    static double megabytesPerSecond(int size, int count, CompletionMode mode, boolean noDelay) throws Exception {
        return megabytesPerSecond(size, count, config(size, mode, TransportPreference.TCP).tcpNoDelay(noDelay));
    }

    /** As above, over the transport {@code config} forces (its mode and message size as given). */
    static double megabytesPerSecond(int size, int count, ChannelConfig config) throws Exception {
        try (LoopbackChannelPair pair = LoopbackChannelPair.open(config);
             Arena arena = Arena.ofConfined()) {
            pair.server().setListener(new Counter(count));
            CompletableFuture<ChannelMessage> allArrived = pair.client().receive();
            // native memory, as the NIO baseline sends from a direct buffer
            MemorySegment payload = arena.allocate(size).fill((byte) 0x3C);
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                pair.client().send(payload);
            }
            CompletionModeBench.await(allArrived);
            return (double) size * count / ((System.nanoTime() - start) / 1e9) / 1e6;
        }
    }

    /**
     * Round trips over the TCP channel on loopback, shaped as the NIO baseline's: the client's
     * thread offers one message and waits for it to come back into one reused buffer (as
     * {@code verbs4j pingpong} does), and a second thread on the server receives each message
     * into one buffer and offers it back (as the baseline's echo thread reads into one buffer and
     * writes it back). Returns the median in microseconds; the first {@code count / 10} are warm-up.
     */
    static double roundTripP50Micros(int size, int count, CompletionMode mode) throws Exception {
        return roundTrips(size, count, config(size, mode, TransportPreference.TCP)).p50Micros();
    }

    /** As above, over the transport {@code config} forces: p50, p99 and mean. */
    static RoundTrips roundTrips(int size, int count, ChannelConfig config) throws Exception {
        int warmup = count / 10;
        try (LoopbackChannelPair pair = LoopbackChannelPair.open(config);
             Arena arena = Arena.ofConfined()) {
            CompletableFuture<Void> echoed = CompletableFuture.runAsync(() -> echo(pair.server(), warmup + count));
            MemorySegment payload = arena.allocate(size).fill((byte) 0x3C);
            long[] roundTrips = new long[count];
            ReceiveBuffer reply = receiveBuffer(pair.client());
            for (int i = 0; i < warmup + count; i++) {
                long start = System.nanoTime();
                offer(pair.client(), payload);
                CompletionModeBench.receive(pair.client(), reply);
                if (i >= warmup) {
                    roundTrips[i - warmup] = System.nanoTime() - start;
                }
            }
            CompletionModeBench.await(echoed);
            return RoundTrips.of(roundTrips);
        }
    }

    /** The server's echo thread: receives each message into one buffer and offers it back. */
    private static void echo(Channel server, int count) {
        ReceiveBuffer message = receiveBuffer(server);
        for (int i = 0; i < count; i++) {
            CompletionModeBench.receive(server, message);
            offer(server, message.message());
        }
    }

    /** Not a confined arena: the channel's loop thread may be the one that fills it. */
    private static ReceiveBuffer receiveBuffer(Channel channel) {
        return new ReceiveBuffer(Arena.ofAuto().allocate(channel.maxMessageSize()));
    }

    private static void offer(Channel channel, MemorySegment message) {
        if (!channel.offer(message, false, 0)) {
            throw new IllegalStateException("the send queue is full with one message out");
        }
    }

    /** Both ends' configuration: {@code transport} forced, {@code mode}, messages of {@code size}. */
    static ChannelConfig config(int size, CompletionMode mode, TransportPreference transport) {
        return ChannelConfig.defaults().transport(transport).mode(mode).maxMessageSize(size);
    }

    /**
     * Counts messages on the server's loop, where they arrive (as the NIO baseline's reader reads
     * into one buffer and copies nothing), and answers with an empty message after the last.
     */
    private static final class Counter implements InPlaceListener {
        private final int expected;
        private int seen;

        Counter(int expected) {
            this.expected = expected;
        }

        @Override
        public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                              int immediate) {
            if (++seen == expected) {
                channel.send(MemorySegment.NULL);
            }
        }
    }
}
