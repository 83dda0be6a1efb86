package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code verbs4j mode-bench}: a ping-pong over a channel, server and client each in its own
 * process on its own completion loop, giving per completion mode the round trip (p50, average)
 * and the CPU seconds each process spent on the measured round trips. The messages are answered
 * by listeners on the loop threads, or with {@code --thread app} by application threads
 * ({@link ModeBenchAppThread}); {@link ModeBenchRounds} says what is warm-up and what is measured.
 * The client prints the transport line, then {@link #HEADER} and one row.
 */
public final class CompletionModeBench {
    static final String HEADER =
            "| mode | thread | bytes | iterations | RTT p50 µs | RTT p99 µs | RTT avg µs | CPU s client | CPU s server"
            + " | JIT ms |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|";
    private static final Duration WAIT = Duration.ofMinutes(10);

    private CompletionModeBench() {}

    /**
     * Runs {@code verbs4j mode-bench}: a bad command line exits 2 with the reason, a failure exits
     * 1, and the JVM exits when the run is done (slf4j or a peer's loop must not keep it alive).
     *
     * @param args the command line ({@link ModeBenchCommand})
     */
    public static void main(String[] args) {
        Cli.exit(new ModeBenchCommand(), args);
    }

    static void run(ModeBenchOptions o, PrintStream out) {
        if (o.server()) {
            serve(o, out);
        } else {
            measure(o, out);
        }
    }

    private static void serve(ModeBenchOptions o, PrintStream out) {
        try (ChannelServer listener = ChannelServer.listen(o.bind(), o.port(), o.config());
             Channel channel = listener.accept(WAIT)) {
            out.println("transport: " + channel.transport().describe());
            if (o.appThread()) {
                ModeBenchAppThread.serve(channel);
                return;
            }
            ModeBenchEcho echo = new ModeBenchEcho();
            channel.setListener(echo);
            await(echo.ended());
        }
    }

    private static void measure(ModeBenchOptions o, PrintStream out) {
        try (Channel channel = ChannelConnector.connect(o.host(), o.port(), o.config())) {
            out.println("transport: " + channel.transport().describe());
            ModeBenchPinger pinger;
            if (o.appThread()) {
                pinger = new ModeBenchAppThread(channel, o.size());
            } else {
                ModeBenchPing ping = new ModeBenchPing(channel, o.size());
                channel.setListener(ping);
                pinger = ping;
            }
            ModeBenchRounds.Result r = ModeBenchRounds.run(pinger, o.warmup(), o.iterations());
            RoundTrips rtt = RoundTrips.of(r.roundTrips());
            out.println(HEADER);
            out.println(String.format(Locale.ROOT, "| %s | %s | %d | %d | %.1f | %.1f | %.1f | %.3f | %.3f | %d |",
                    o.mode().label(), o.appThread() ? "app" : "loop", o.size(), o.iterations(), rtt.p50Micros(),
                    rtt.p99Micros(), rtt.avgMicros(), r.clientCpuNanos() / 1e9, r.serverCpuNanos() / 1e9, r.compiledMillis()));
        }
    }

    /** The next message into {@code into}, waited for as {@link #await} waits (allocating nothing). */
    static void receive(Channel channel, ReceiveBuffer into) {
        if (!channel.receive(into, WAIT)) {
            throw new IllegalStateException("no answer from the peer within " + WAIT);
        }
    }

    static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from the peer within " + WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
