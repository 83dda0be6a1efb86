package dev.verbs4j.benchmarks.jmh;

import dev.verbs4j.benchmarks.modes.LoopbackChannelPair;
import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * One message out and back over a channel pair on loopback, TCP or shared memory (no device
 * needed) or RDMA, each end on its own EVENT loop, through the three ways of using a channel: {@code offerAndReadInPlace}
 * ({@link Channel#offer} and a listener that reads each message where it arrived),
 * {@code offerAndReceiveIntoBuffer} (offer, and a thread that waits for each reply in one reused
 * {@link ReceiveBuffer}): for both the GC profiler should report ≈ 0 B/op, both ends and both
 * loops counted; and {@code sendAndReceive} ({@link Channel#send} and {@link Channel#receive}
 * futures, each message a copy of its own).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class ChannelRoundTripBenchmark {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Param({"64", "4096"})
    public int size;

    /**
     * tcp and shm run anywhere; rdma needs the rig's device (-p transport=tcp,shm on a host
     * without one). Each is forced: the channel never falls back to another.
     */
    @Param({"tcp", "shm", "rdma"})
    public String transport;

    private LoopbackChannelPair pair;
    private Channel server;
    private Channel client;
    private Arena arena;
    private MemorySegment payload;
    private ReceiveBuffer replyBuffer;
    /** Replies the client's listener has seen (its loop thread writes, the benchmark thread reads). */
    private volatile long replies;
    private long expected;

    @Setup(Level.Trial)
    public void open(BenchmarkParams params) throws Exception {
        open(params.getBenchmark().endsWith("offerAndReadInPlace"));
    }

    /** Connects the pair; {@code inPlace}: the client takes replies with a listener, not receive(). */
    void open(boolean inPlace) throws Exception {
        TransportPreference preference = switch (transport) {
            case "rdma" -> TransportPreference.RDMA;
            case "shm" -> TransportPreference.SHM;
            case "tcp" -> TransportPreference.TCP;
            default -> throw new IllegalArgumentException("transport is tcp, shm or rdma, not " + transport);
        };
        ChannelConfig config = ChannelConfig.defaults().transport(preference).mode(CompletionMode.EVENT)
                .maxMessageSize(size);
        pair = LoopbackChannelPair.open(config);
        server = pair.server();
        client = pair.client();
        arena = Arena.ofShared();
        payload = arena.allocate(size).fill((byte) 0x5A);
        replyBuffer = new ReceiveBuffer(arena.allocate(client.maxMessageSize()));
        server.setListener(new InPlaceEcho(arena.allocate(size)));
        if (inPlace) {
            client.setListener(new ReplyCounter()); // sendAndReceive takes its replies with receive()
        }
    }

    /** The transport the pair runs on ("tcp", "shm", "rdma"): the forced one, or opening failed. */
    String transportLabel() {
        return client.transport().kind().label();
    }

    /** Offers a message and spins until the echo has reached the client's in-place listener. */
    @Benchmark
    public long offerAndReadInPlace() {
        expected++;
        while (!client.offer(payload, false, 0)) {
            Thread.onSpinWait();
        }
        while (replies < expected) {
            Thread.onSpinWait();
        }
        return expected;
    }

    /** Sends with a future and waits on a receive future for the echo. */
    @Benchmark
    public int sendAndReceive() throws Exception {
        CompletableFuture<ChannelMessage> reply = client.receive();
        client.send(payload);
        return reply.get(WAIT.toSeconds(), TimeUnit.SECONDS).length();
    }

    /** Offers a message and waits for the echo in one reused buffer. */
    @Benchmark
    public int offerAndReceiveIntoBuffer() {
        if (!client.offer(payload, false, 0)) {
            throw new IllegalStateException("the send queue is full with no message out");
        }
        if (!client.receive(replyBuffer, WAIT)) {
            throw new IllegalStateException("no echo within " + WAIT);
        }
        return replyBuffer.length();
    }

    @TearDown(Level.Trial)
    public void close() {
        pair.close();
        arena.close();
    }

    /** The server's end: copies each message into one reply buffer and offers it back. */
    private static final class InPlaceEcho implements ChannelListener {
        private final MemorySegment reply;

        InPlaceEcho(MemorySegment reply) {
            this.reply = reply;
        }

        @Override
        public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                              int immediate) {
            MemorySegment.copy(buffer, offset, reply, 0, length); // offer copies too: the reply buffer is free again
            if (!channel.offer(reply, false, 0)) {
                throw new IllegalStateException("the echo's send queue is full");
            }
        }

        @Override
        public void onMessage(Channel channel, ChannelMessage message) {
            throw new IllegalStateException("the in-place listener was handed a copy");
        }
    }

    /** The client's end for offerAndReadInPlace: counts the echoes, reading nothing. */
    private final class ReplyCounter implements ChannelListener {
        @Override
        public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                              int immediate) {
            replies++; // one loop thread writes
        }

        @Override
        public void onMessage(Channel channel, ChannelMessage message) {
            throw new IllegalStateException("the in-place listener was handed a copy");
        }
    }
}
