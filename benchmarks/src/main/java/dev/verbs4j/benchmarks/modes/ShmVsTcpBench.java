package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.benchmarks.perf.JitQuiet;
import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * {@code verbs4j shm-vs-tcp}: the shared-memory channel in each completion mode next to the TCP
 * channel (BUSY and EVENT), a plain NIO socket loop and the spinning floor ({@link SpinFloor}),
 * all in this one process on loopback, per message size: the round trip's p50 and p99 (one
 * message out and back at a time, shaped as {@code verbs4j pingpong}: offer, then a receive into
 * one reused buffer; the echo side the same on its own thread) and one-way stream throughput.
 * Each end of a channel has its own completion loop, as two processes would. Every side runs
 * once untimed first ({@code --warmup} round trips and messages), then the JIT is let settle
 * ({@link JitQuiet}), then each side is measured once, one after the other.
 */
public final class ShmVsTcpBench {
    static final String HEADER = "| bytes | path | RTT p50 µs | RTT p99 µs | stream MB/s |\n|---:|---|---:|---:|---:|";
    static final String IDLE_HEADER = "| idle path | seconds | threads in receive | loop wake-ups/s (server / client) "
            + "| loop CPU ms/s (server / client) | process CPU ms/s |\n|---|---:|---:|---:|---:|---:|";

    private ShmVsTcpBench() {}

    /** What {@code verbs4j shm-vs-tcp} was asked ({@link ShmVsTcpCommand}). */
    record Options(List<Integer> sizes, int messages, int roundTrips, int warmup, int idleSeconds) {}

    /** One path the table compares: a channel (transport, mode) or a baseline. */
    private record Side(String label, TransportPreference transport, CompletionMode mode) {}

    private static final List<Side> SIDES = List.of(
            new Side("shm busy", TransportPreference.SHM, CompletionMode.BUSY_POLL),
            new Side("shm event", TransportPreference.SHM, CompletionMode.EVENT),
            new Side("shm adaptive", TransportPreference.SHM, CompletionMode.ADAPTIVE),
            new Side("tcp channel busy", TransportPreference.TCP, CompletionMode.BUSY_POLL),
            new Side("tcp channel event", TransportPreference.TCP, CompletionMode.EVENT),
            new Side("plain NIO", null, null));

    /**
     * Runs {@code verbs4j shm-vs-tcp}: a bad command line exits 2 with the reason, a failure exits 1.
     *
     * @param args the command line ({@link ShmVsTcpCommand})
     */
    public static void main(String[] args) {
        Cli.exit(new ShmVsTcpCommand(), args);
    }

    static void run(Options o, PrintStream out) throws Exception {
        out.println(HEADER);
        for (int size : o.sizes()) {
            if (o.warmup() > 0) {
                for (Side side : SIDES) {
                    measure(side, size, o.warmup(), o.warmup());
                }
                SpinFloor.roundTrips(o.warmup());
                JitQuiet.await();
            }
            for (Side side : SIDES) {
                Figures f = measure(side, size, o.roundTrips(), o.messages());
                out.println(row(size, side.label(), f.rtt(), String.format(Locale.ROOT, "%.0f", f.megabytesPerSecond())));
            }
        }
        out.println(row(8, "spin floor (a word each way, two threads)", SpinFloor.roundTrips(o.roundTrips()), "-"));
        if (o.idleSeconds() > 0) {
            out.println();
            out.println(IDLE_HEADER);
            for (boolean receiving : new boolean[] {false, true}) {
                out.println(idleRow(o.idleSeconds(), receiving));
            }
        }
    }

    /**
     * One shm channel pair in EVENT mode, each end on its own loop, idle for {@code seconds}
     * after a message each way ({@code receiving}: with a thread waiting in receive on each end):
     * what its loops and this process do meanwhile. The target is no wake-up at all.
     */
    private static String idleRow(int seconds, boolean receiving) throws Exception {
        IdleLoopBench.Figures f = IdleLoopBench.measure(new IdleLoopBench.Options(CompletionMode.EVENT, 1, seconds,
                receiving, TransportPreference.SHM, "127.0.0.1", null, -1));
        double s = f.seconds();
        return String.format(Locale.ROOT, "| %s event | %d | %d | %.1f / %.1f | %.2f / %.2f | %.2f |",
                f.transport().kind().label(), seconds, receiving ? 1 : 0, f.server().contextSwitches() / s,
                f.client().contextSwitches() / s, f.server().cpuNanos() / 1e6 / s, f.client().cpuNanos() / 1e6 / s,
                f.processCpuNanos() / 1e6 / s);
    }

    private record Figures(RoundTrips rtt, double megabytesPerSecond) {}

    private static Figures measure(Side side, int size, int roundTrips, int messages) throws Exception {
        if (side.transport() == null) {
            return new Figures(NioStream.roundTrips(size, roundTrips), NioStream.megabytesPerSecond(size, messages, true));
        }
        ChannelConfig config = ChannelStream.config(size, side.mode(), side.transport());
        return new Figures(ChannelStream.roundTrips(size, roundTrips, config),
                ChannelStream.megabytesPerSecond(size, messages, config));
    }

    private static String row(int size, String label, RoundTrips rtt, String megabytesPerSecond) {
        return String.format(Locale.ROOT, "| %d | %s | %.2f | %.2f | %s |", size, label, rtt.p50Micros(), rtt.p99Micros(),
                megabytesPerSecond);
    }
}
