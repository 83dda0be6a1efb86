package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.benchmarks.perf.JitQuiet;
import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.loop.CompletionMode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * {@code verbs4j tcp-vs-nio}: the TCP fallback channel's stream throughput next to a plain NIO
 * socket loop, same sizes and counts, on loopback in this one process, like for like twice: with
 * Nagle on in both (the channel configured with {@code tcpNoDelay(false)}, NIO's default), and
 * with TCP_NODELAY in both (the channel's default). Then the round trip of each, TCP_NODELAY in
 * both (one message out and back at a time, {@code --rtt-iters} of them). Per size: a warm-up
 * pass of each and rounds until the JIT is done (not reported, {@link #warmUp}), then
 * {@code rounds} alternating passes; each column is their median. A stream pass sends {@code -n}
 * messages, or with {@code --seconds S} as many as plain NIO sent in S seconds in the last
 * warm-up round, so that every size and placement gets passes of about the same length.
 *
 * <p>Then each round's own ratios, their median and range: the two sides of a round ran one
 * after the other, so a drift of the machine's speed over the run (another guest's load, the
 * emulator's translation cache) cancels out of a round's ratio where it stays in a median of
 * each side's figures. Then the best round of each column (highest MB/s, lowest round-trip
 * p50), and every round's figures. Free on several CPUs, where the scheduler puts each pass's
 * threads decides much of a pass's speed: in the soft-RoCE rig a round trip's p50 is either
 * about 150 or about 320 µs from pass to pass, for plain NIO and the channel alike, so a median
 * of a few passes compares the placements each side drew as much as the code. The best round compares each side where the
 * scheduler was least in the way; the rounds show the spread.
 */
public final class TcpFallbackVsNioBench {
    static final String HEADER = "| bytes | channel MB/s | plain NIO MB/s | ratio "
            + "| channel, TCP_NODELAY MB/s | NIO, TCP_NODELAY MB/s | ratio "
            + "| channel RTT p50 µs | NIO RTT p50 µs | ratio |\n"
            + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

    private TcpFallbackVsNioBench() {}

    /**
     * What {@code verbs4j tcp-vs-nio} was asked ({@link TcpVsNioCommand}): {@code count} messages
     * per stream pass, or, when {@code passSeconds} is above 0, as many as plain NIO sent in that
     * long in the warm-up ({@link SizeRounds#sizePasses}).
     */
    record Options(List<Integer> sizes, int count, double passSeconds, int rounds, CompletionMode mode, int roundTrips,
            int warmup) {
        boolean timedPasses() {
            return passSeconds > 0;
        }
    }

    /**
     * Runs {@code verbs4j tcp-vs-nio}: a bad command line exits 2 with the reason, a failure exits 1.
     *
     * @param args the command line ({@link TcpVsNioCommand})
     */
    public static void main(String[] args) {
        Cli.exit(new TcpVsNioCommand(), args);
    }

    static void run(Options o, PrintStream out) throws Exception {
        out.println(HEADER);
        List<SizeRounds> all = new ArrayList<>();
        for (int size : o.sizes()) {
            SizeRounds r = new SizeRounds(size, o.rounds(), o.count());
            warmUp(o, size, r);
            for (int i = 0; i < o.rounds(); i++) { // alternate, so drift in the machine hits both alike
                r.measure(i, o);
            }
            out.println(r.row(TcpFallbackVsNioBench::median, TcpFallbackVsNioBench::median));
            all.add(r);
        }
        out.println();
        out.println(RATIOS_TITLE.formatted(o.rounds()));
        out.println();
        out.println(RATIOS_HEADER);
        for (SizeRounds r : all) {
            out.println(r.ratios());
        }
        out.println();
        out.println(BEST_TITLE.formatted(o.rounds()));
        out.println();
        out.println(HEADER);
        for (SizeRounds r : all) {
            out.println(r.row(TcpFallbackVsNioBench::max, TcpFallbackVsNioBench::min));
        }
        out.println();
        out.println(ROUNDS_TITLE);
        for (SizeRounds r : all) {
            out.println(r.rounds());
        }
    }

    /** Warm-up rounds at most, after the first: each repeats a measured round's passes. */
    static final int MAX_SETTLE_ROUNDS = 4;

    /**
     * Runs each side's every path untimed, long enough for C2 to compile it ({@code --warmup}
     * messages), and waits until the JIT has compiled nothing for a second; then, while that
     * compiled something, a round shaped as the measured ones and the same wait, as the other
     * benchmarks here do ({@link JitQuiet}). Under the rig's emulation a JVM that alternated the
     * two sides' 64 KiB streams after the single warm-up pass spent, outside its sending thread,
     * up to twice NIO's CPU per channel message in its first three rounds (compiler threads
     * included) and as much as NIO from the fourth on.
     */
    private static void warmUp(Options o, int size, SizeRounds scratch) throws Exception {
        // every figure measured here is overwritten by the first measured round
        if (o.warmup() == 0) {
            if (o.timedPasses()) {
                scratch.measure(0, MIN_TIMED_PASS, MIN_TIMED_PASS, o.roundTrips(), o);
                scratch.sizePasses(o.passSeconds());
            }
            return;
        }
        long compiledBefore = JitQuiet.compilationMillis();
        scratch.measure(0, o.warmup(), o.warmup(), o.warmup(), o);
        resize(o, scratch);
        JitQuiet.await();
        for (int round = 0; round < MAX_SETTLE_ROUNDS && JitQuiet.compilationMillis() != compiledBefore; round++) {
            compiledBefore = JitQuiet.compilationMillis();
            scratch.measure(0, o);
            resize(o, scratch);
            JitQuiet.await();
        }
    }

    private static void resize(Options o, SizeRounds r) {
        if (o.timedPasses()) {
            r.sizePasses(o.passSeconds());
        }
    }

    /**
     * The fewest messages in a pass sized by time: in the rig's slowest placements (one CPU,
     * TCP_NODELAY, 64 B) plain NIO moves 0.3 MB/s, and a pass of a fixed 20 MB took a minute
     * there while a 64 KiB pass of the same bytes took a quarter of a second in the same boot.
     */
    static final int MIN_TIMED_PASS = 2000;

    static final String RATIOS_TITLE = "Each round's own ratio (channel / NIO), median (range) of %d:";
    static final String RATIOS_HEADER = "| bytes | ratio, Nagle | ratio, TCP_NODELAY | ratio, RTT p50 |\n"
            + "|---:|---:|---:|---:|";
    static final String BEST_TITLE = "Best round of %d (highest MB/s, lowest round-trip p50):";
    static final String ROUNDS_TITLE = "Every round, in order (channel / NIO: Nagle MB/s; TCP_NODELAY MB/s; "
            + "round-trip p50 µs), with the messages in each Nagle / TCP_NODELAY pass:";

    /** One size's figures, a value per round and column. */
    private static final class SizeRounds {
        final int size;
        final double[] channel, nio, channelNoDelay, nioNoDelay, channelRtt, nioRtt;
        /** Messages per stream pass, Nagle and TCP_NODELAY: the same for the channel and NIO. */
        int nagleCount, noDelayCount;

        SizeRounds(int size, int rounds, int count) {
            this.size = size;
            nagleCount = count;
            noDelayCount = count;
            channel = new double[rounds];
            nio = new double[rounds];
            channelNoDelay = new double[rounds];
            nioNoDelay = new double[rounds];
            channelRtt = new double[rounds];
            nioRtt = new double[rounds];
        }

        /** Round {@code i}: each side's two streams and round trip, alternating, with this size's counts. */
        void measure(int i, Options o) throws Exception {
            measure(i, nagleCount, noDelayCount, o.roundTrips(), o);
        }

        /** Round {@code i} with these messages per stream (Nagle, TCP_NODELAY) and round trips. */
        void measure(int i, int nagle, int noDelay, int roundTrips, Options o) throws Exception {
            channel[i] = ChannelStream.megabytesPerSecond(size, nagle, o.mode(), false);
            nio[i] = NioStream.megabytesPerSecond(size, nagle, false);
            channelNoDelay[i] = ChannelStream.megabytesPerSecond(size, noDelay, o.mode(), true);
            nioNoDelay[i] = NioStream.megabytesPerSecond(size, noDelay, true);
            channelRtt[i] = ChannelStream.roundTripP50Micros(size, roundTrips, o.mode());
            nioRtt[i] = NioStream.roundTripP50Micros(size, roundTrips);
        }

        /**
         * Sizes each stream's passes to about {@code seconds} of plain NIO at the rate its last
         * pass (round 0) drew: a pass of fixed bytes is too short to be steady where NIO is fast
         * and takes minutes where it is slow.
         */
        void sizePasses(double seconds) {
            nagleCount = messagesPerPass(nio[0], seconds, size);
            noDelayCount = messagesPerPass(nioNoDelay[0], seconds, size);
        }

        /** A table row: throughput columns summed up by {@code rates}, round trips by {@code times}. */
        String row(ToDoubleFunction<double[]> rates, ToDoubleFunction<double[]> times) {
            double c = rates.applyAsDouble(channel);
            double n = rates.applyAsDouble(nio);
            double cd = rates.applyAsDouble(channelNoDelay);
            double nd = rates.applyAsDouble(nioNoDelay);
            double cr = times.applyAsDouble(channelRtt);
            double nr = times.applyAsDouble(nioRtt);
            return String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f |",
                    size, c, n, c / n, cd, nd, cd / nd, cr, nr, cr / nr);
        }

        /** A row of each round's own ratios, channel over NIO: median (min-max) per column. */
        String ratios() {
            return String.format(Locale.ROOT, "| %d | %s | %s | %s |", size, spread(channel, nio),
                    spread(channelNoDelay, nioNoDelay), spread(channelRtt, nioRtt));
        }

        private static String spread(double[] channelSide, double[] nioSide) {
            double[] ratios = new double[channelSide.length];
            for (int i = 0; i < ratios.length; i++) {
                ratios[i] = channelSide[i] / nioSide[i];
            }
            return String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", median(ratios), min(ratios), max(ratios));
        }

        String rounds() {
            StringBuilder line = new StringBuilder("- ").append(size).append(" B, ").append(nagleCount).append(" / ")
                    .append(noDelayCount).append(" messages a pass:");
            for (int i = 0; i < channel.length; i++) {
                line.append(String.format(Locale.ROOT, "%s %.1f / %.1f; %.1f / %.1f; %.1f / %.1f", i == 0 ? "" : " |",
                        channel[i], nio[i], channelNoDelay[i], nioNoDelay[i], channelRtt[i], nioRtt[i]));
            }
            return line.toString();
        }
    }

    /** Messages of {@code size} bytes that {@code megabytesPerSecond} moves in {@code seconds}, at least {@link #MIN_TIMED_PASS}. */
    static int messagesPerPass(double megabytesPerSecond, double seconds, int size) {
        double messages = Math.ceil(megabytesPerSecond * 1e6 * seconds / size);
        return (int) Math.max(MIN_TIMED_PASS, Math.min(messages, Integer.MAX_VALUE / 2));
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static double max(double[] values) {
        return Arrays.stream(values).max().orElseThrow();
    }

    static double min(double[] values) {
        return Arrays.stream(values).min().orElseThrow();
    }
}
