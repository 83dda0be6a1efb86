package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.guest.CompletionMode;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code verbs4j tcp-vs-nio}: the TCP fallback channel's stream throughput next to a plain NIO
 * socket loop, same sizes and counts, on loopback in this one process, like for like twice: with
 * Nagle on in both (the channel configured with {@code tcpNoDelay(false)}, NIO's default), and
 * with TCP_NODELAY in both (the channel's default). Then the round trip of each, TCP_NODELAY in
 * both (one message out and back at a time, {@code --rtt-iters} of them). Per size: a warm-up
 * pass of each (not reported), then {@code rounds} alternating passes; each column is their median.
 */
public final class TcpFallbackVsNioBench {
    static final String HEADER = "| bytes | channel MB/s | plain NIO MB/s | ratio "
            + "| channel, TCP_NODELAY MB/s | NIO, TCP_NODELAY MB/s | ratio "
            + "| channel RTT p50 µs | NIO RTT p50 µs | ratio |\n"
            + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

    private TcpFallbackVsNioBench() {}

    /** What {@code verbs4j tcp-vs-nio} was asked ({@link TcpVsNioCommand}). */
    record Options(List<Integer> sizes, int count, int rounds, CompletionMode mode, int roundTrips, int warmup) {}

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
        for (int size : o.sizes()) {
            if (o.warmup() > 0) { // each side's every path, long enough for C2 to compile it
                ChannelStream.megabytesPerSecond(size, o.warmup(), o.mode(), false);
                ChannelStream.megabytesPerSecond(size, o.warmup(), o.mode(), true);
                NioStream.megabytesPerSecond(size, o.warmup(), false);
                NioStream.megabytesPerSecond(size, o.warmup(), true);
                ChannelStream.roundTripP50Micros(size, o.warmup(), o.mode());
                NioStream.roundTripP50Micros(size, o.warmup());
            }
            double[] channel = new double[o.rounds()];
            double[] nio = new double[o.rounds()];
            double[] channelNoDelay = new double[o.rounds()];
            double[] nioNoDelay = new double[o.rounds()];
            double[] channelRtt = new double[o.rounds()];
            double[] nioRtt = new double[o.rounds()];
            for (int r = 0; r < o.rounds(); r++) { // alternate, so drift in the machine hits both alike
                channel[r] = ChannelStream.megabytesPerSecond(size, o.count(), o.mode(), false);
                nio[r] = NioStream.megabytesPerSecond(size, o.count(), false);
                channelNoDelay[r] = ChannelStream.megabytesPerSecond(size, o.count(), o.mode(), true);
                nioNoDelay[r] = NioStream.megabytesPerSecond(size, o.count(), true);
                channelRtt[r] = ChannelStream.roundTripP50Micros(size, o.roundTrips(), o.mode());
                nioRtt[r] = NioStream.roundTripP50Micros(size, o.roundTrips());
            }
            double c = median(channel);
            double n = median(nio);
            double cd = median(channelNoDelay);
            double nd = median(nioNoDelay);
            double cr = median(channelRtt);
            double nr = median(nioRtt);
            out.println(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f |",
                    size, c, n, c / n, cd, nd, cd / nd, cr, nr, cr / nr));
        }
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
