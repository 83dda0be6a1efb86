package dev.verbs4j.examples;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.cli.CommonOptions;
import dev.verbs4j.examples.cli.CompletionModeConverter;
import dev.verbs4j.examples.cli.TransportPreferenceConverter;
import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionMode;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bin/verbs4j pingpong}: the channel layer's demo. Two processes connect; shared memory on
 * one machine, else RDMA when both can, else TCP (and the first line says which and why); then
 * round trips for latency and a one-way stream for throughput, each after a warm-up that is
 * reported and not counted (the JIT compiles the path meanwhile); the first round trip, cold,
 * has its own line.
 */
@Command(name = "pingpong",
        customSynopsis = {"${COMMAND-FULL-NAME} --server [OPTIONS]     wait for one client",
                "       ${COMMAND-FULL-NAME} [OPTIONS] HOST         connect to a server on HOST"},
        description = {"channel ping-pong: shm on one machine, else RDMA when both sides can, else TCP (says which "
                + "and why)",
                "Ping-pong over a verbs4j channel: shared memory between two processes of one user on one machine, "
                        + "else RDMA (an RC queue pair) when both sides can, else TCP. The first line says which "
                        + "transport runs and why; then round-trip latency and throughput. --transport rdma keeps two "
                        + "local processes on RDMA."})
public final class PingpongCommand implements Callable<Integer> {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The bootstrap port a server listens on unless told: also where {@code doctor --peer HOST} asks. */
    static final int DEFAULT_PORT = 18515;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    @Option(names = "--server", description = "be the server")
    boolean server;

    @Parameters(arity = "0..1", paramLabel = "HOST", description = "the server to connect to")
    String host;

    @Option(names = "--transport", paramLabel = "T", converter = TransportPreferenceConverter.class,
            description = "auto (default), rdma (no fallback), tcp or shm (shared memory, both ends on this machine)")
    TransportPreference transport = TransportPreference.AUTO;

    @Option(names = "--mode", paramLabel = "M", converter = CompletionModeConverter.class,
            description = "completion loop: busy, event (default) or adaptive")
    CompletionMode mode = CompletionMode.EVENT;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", description = "message size in bytes (default 4096)")
    int size = 4096;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "round trips, and messages streamed (default 1000)")
    int iterations = 1000;

    @Option(names = "--warmup", paramLabel = "N", description = "round trips, and messages streamed, before the "
            + "measured ones: reported, not counted (default 2000)")
    int warmup = 2000;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "bootstrap TCP port (default " + DEFAULT_PORT + ")")
    int port = DEFAULT_PORT;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEVICE", description = "RDMA device (default: the first usable one)")
    String device;

    @Option(names = {"-g", "--gid-idx"}, paramLabel = "INDEX", description = "GID index (default: a RoCE v2 IPv4 GID)")
    int gidIndex = -1;

    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    /** The command line, parsed. */
    record Settings(boolean server, String host, TransportPreference transport, CompletionMode mode, int size,
                    int iterations, int warmup, int port, String device, int gidIndex) {

        ChannelConfig config() {
            return ChannelConfig.defaults().transport(transport).mode(mode).maxMessageSize(Math.max(size, 8))
                    .device(device).gidIndex(gidIndex).connectTimeout(Duration.ofSeconds(30));
        }
    }

    private PingpongCommand() {}

    public static void main(String[] args) {
        Cli.exit(new PingpongCommand(), args);
    }

    @Override
    public Integer call() {
        Settings s = settings();
        common.applyVerbosity();
        return run(s, System.out);
    }

    /** Parses a command line (tests; {@link #main} goes through picocli's execute). */
    static Settings parse(String... args) {
        PingpongCommand c = new PingpongCommand();
        Cli.commandLine(c).parseArgs(args);
        return c.settings();
    }

    private Settings settings() {
        if (server == (host != null)) {
            throw Cli.usageError(spec, "give either --server or the server's HOST");
        }
        if (size < 1 || iterations < 1 || warmup < 0) {
            throw Cli.usageError(spec, "size and iterations must be positive, the warm-up not negative");
        }
        return new Settings(server, host, transport, mode, size, iterations, warmup, port, device, gidIndex);
    }

    static int run(Settings s, PrintStream out) {
        if (s.server()) {
            try (ChannelServer listener = ChannelServer.listen("0.0.0.0", s.port(), s.config());
                 Channel channel = listener.accept(Duration.ofMinutes(10))) {
                out.println("transport: " + channel.transport().describe());
                serve(channel, out);
            }
            return 0;
        }
        try (Channel channel = ChannelConnector.connect(s.host(), s.port(), s.config())) {
            out.println("transport: " + channel.transport().describe());
            measure(channel, s, out);
        }
        return 0;
    }

    /**
     * Server: learn size, count and warm-up, echo the round trips (warm-up ones included), take
     * the warm-up stream and acknowledge it, then the measured stream and acknowledge that.
     */
    private static void serve(Channel channel, PrintStream out) {
        MemorySegment params = await(channel.receive()).data();
        int size = params.get(INT, 0);
        int iterations = params.get(INT, 4);
        int warmup = params.get(INT, 8);
        // the round trips: each ping lands in one reused buffer and goes back from there
        ReceiveBuffer ping = new ReceiveBuffer(MemorySegment.ofArray(new byte[channel.maxMessageSize()]));
        MemorySegment echo = ping.memory().asSlice(0, size);
        for (int i = 0; i < warmup + iterations; i++) {
            receive(channel, ping);
            channel.send(echo);
        }
        long bytes = 0;
        for (int stream : new int[] {warmup, iterations}) {
            if (stream == 0) {
                continue; // no warm-up: the client waits for no acknowledgement of it
            }
            for (int i = 0; i < stream; i++) {
                bytes += await(channel.receive()).length();
            }
            await(channel.send(params));
        }
        out.printf("served %d round trips and %d streamed messages of %d bytes (%d bytes), warm-up included%n",
                warmup + iterations, warmup + iterations, size, bytes);
    }

    /** The next message into {@code into}, which the thread waits for allocating nothing. */
    private static void receive(Channel channel, ReceiveBuffer into) {
        if (!channel.receive(into, WAIT)) {
            throw new IllegalStateException("no message from the peer within " + WAIT);
        }
    }

    /**
     * Client: round trips one at a time (latency), then a stream of sends (throughput); each
     * first as a warm-up that is timed as a whole and not counted.
     */
    private static void measure(Channel channel, Settings s, PrintStream out) {
        MemorySegment params = MemorySegment.ofArray(new byte[12]);
        params.set(INT, 0, s.size());
        params.set(INT, 4, s.iterations());
        params.set(INT, 8, s.warmup());
        await(channel.send(params));
        MemorySegment payload = MemorySegment.ofArray(new byte[s.size()]);
        payload.fill((byte) 0x42);
        ReceiveBuffer reply = new ReceiveBuffer(MemorySegment.ofArray(new byte[channel.maxMessageSize()]));

        long[] warm = new long[Math.max(s.warmup(), 1)];
        long warmStart = System.nanoTime();
        roundTrips(channel, payload, reply, warm, s.warmup());
        long warmNanos = System.nanoTime() - warmStart;
        long[] rtt = new long[s.iterations()];
        roundTrips(channel, payload, reply, rtt, s.iterations());
        if (s.warmup() > 0) {
            out.printf("cold: first round trip %.2f us%n", warm[0] / 1e3);
            out.printf("warm-up: %d round trips, %.2f s, not counted%n", s.warmup(), warmNanos / 1e9);
        } else {
            out.printf("cold: first round trip %.2f us (no warm-up: it is counted below)%n", rtt[0] / 1e3);
        }
        Arrays.sort(rtt);
        out.printf("mode: %s, %d bytes, %d iterations%n", s.mode().label(), s.size(), s.iterations());
        out.printf("latency: round trip avg %.2f us, min %.2f us, p50 %.2f us, p99 %.2f us%n",
                Arrays.stream(rtt).average().orElse(0) / 1e3, rtt[0] / 1e3, rtt[rtt.length / 2] / 1e3,
                rtt[Math.min(rtt.length - 1, (int) (rtt.length * 0.99))] / 1e3);

        if (s.warmup() > 0) {
            stream(channel, payload, s.warmup());
        }
        long elapsed = stream(channel, payload, s.iterations());
        double seconds = elapsed / 1e9;
        out.printf("throughput: %.2f MB/s, %.0f messages/s (%d x %d bytes in %.3f s)%n",
                (double) s.size() * s.iterations() / seconds / 1e6, s.iterations() / seconds, s.iterations(),
                s.size(), seconds);
    }

    /** {@code count} round trips one at a time, each one's nanoseconds into {@code into}. */
    private static void roundTrips(Channel channel, MemorySegment payload, ReceiveBuffer reply, long[] into, int count) {
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            channel.send(payload);
            receive(channel, reply);
            if (reply.length() != payload.byteSize()) {
                throw new IllegalStateException("reply " + i + " has the wrong length");
            }
            into[i] = System.nanoTime() - t0;
        }
    }

    /** {@code count} sends, then the server's acknowledgement of them all: the nanoseconds that took. */
    private static long stream(Channel channel, MemorySegment payload, int count) {
        CompletableFuture<ChannelMessage> done = channel.receive();
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            sends.add(channel.send(payload)); // waits while the send queue is full
        }
        await(done);
        long elapsed = System.nanoTime() - t0;
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();
        return elapsed;
    }

    private static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof ChannelException c ? c : new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("no answer from the peer within " + WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
