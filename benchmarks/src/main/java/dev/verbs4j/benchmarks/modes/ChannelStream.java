package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.CompletionMode;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.guest.TransportPreference;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * One stream over the TCP channel on loopback: the client sends {@code count} messages (send()
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
        try (LoopbackChannelPair pair = LoopbackChannelPair.open(tcp(size, mode).tcpNoDelay(noDelay));
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
     * Round trips over the TCP channel on loopback: the client's thread offers one message and
     * waits for it to come back into one reused buffer (as {@code verbs4j pingpong} does, and as
     * the NIO baseline reads into one), the server's listener echoes it on its loop from where it
     * arrived (as the NIO baseline's echo thread writes back the buffer it read into). Returns the
     * median in microseconds; the first {@code count / 10} are warm-up.
     */
    static double roundTripP50Micros(int size, int count, CompletionMode mode) throws Exception {
        try (LoopbackChannelPair pair = LoopbackChannelPair.open(tcp(size, mode));
             Arena arena = Arena.ofConfined()) {
            pair.server().setListener(new Echo());
            MemorySegment payload = arena.allocate(size).fill((byte) 0x3C);
            int warmup = count / 10;
            long[] roundTrips = new long[count];
            // not the confined arena: the client's loop thread may be the one that fills it
            ReceiveBuffer reply = new ReceiveBuffer(Arena.ofAuto().allocate(pair.client().maxMessageSize()));
            for (int i = 0; i < warmup + count; i++) {
                long start = System.nanoTime();
                if (!pair.client().offer(payload, false, 0)) {
                    throw new IllegalStateException("the send queue is full with no message out");
                }
                CompletionModeBench.receive(pair.client(), reply);
                if (i >= warmup) {
                    roundTrips[i - warmup] = System.nanoTime() - start;
                }
            }
            return RoundTrips.of(roundTrips).p50Micros();
        }
    }

    private static ChannelConfig tcp(int size, CompletionMode mode) {
        return ChannelConfig.defaults().transport(TransportPreference.TCP).mode(mode).maxMessageSize(size);
    }

    /** Echoes each message on the server's loop, read in place and offered back. */
    private static final class Echo implements InPlaceListener {
        @Override
        public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                              int immediate) {
            if (!channel.offer(buffer.asSlice(offset, length), false, 0)) {
                throw new IllegalStateException("the send queue is full with one echo out");
            }
        }
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
