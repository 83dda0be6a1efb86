package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.CompletionMode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code verbs4j tcp-vs-nio}: the TCP fallback channel's stream throughput next to a plain NIO
 * socket loop, same sizes and counts, on loopback in this one process, then the round trip of
 * each (one message out and back at a time, {@code --rtt-iters} of them). Per size: a warm-up pass
 * of each (not reported), then {@code rounds} alternating passes; each column is their median.
 */
public final class TcpFallbackVsNioBench {
    static final String HEADER = "| bytes | TCP channel MB/s | plain NIO MB/s | ratio | TCP channel RTT p50 µs "
            + "| plain NIO RTT p50 µs | ratio |\n|---:|---:|---:|---:|---:|---:|---:|";
    static final String USAGE = """
            Usage: verbs4j tcp-vs-nio [OPTIONS]      (loopback only; prints a Markdown table)
              -s, --sizes LIST            message sizes, comma- or space-separated (default 64,4096,65536)
              -n, --iters N               messages per pass (default 20000)
              --rounds N                  measured passes per size and side (default 3)
              --rtt-iters N               round trips per pass (default 2000)
              --mode busy|event|adaptive  the channel's completion mode (default event)
            """;

    private TcpFallbackVsNioBench() {}

    record Options(List<Integer> sizes, int count, int rounds, CompletionMode mode, int roundTrips) {
        static Options parse(String[] args) {
            BenchArgs a = BenchArgs.parse(args, Set.of("-s", "--sizes", "-n", "--iters", "--rounds", "--mode", "--rtt-iters"),
                    Set.of());
            if (a.operand() != null) {
                throw new IllegalArgumentException("unexpected argument " + a.operand());
            }
            List<Integer> sizes = new ArrayList<>();
            for (String s : a.text("64,4096,65536", "-s", "--sizes").trim().split("[,\\s]+")) {
                sizes.add(Integer.parseInt(s));
            }
            Options o = new Options(sizes, a.number(20_000, "-n", "--iters"), a.number(3, "--rounds"),
                    CompletionMode.parse(a.text("event", "--mode")), a.number(2000, "--rtt-iters"));
            if (o.count < 1 || o.rounds < 1 || o.roundTrips < 1 || sizes.stream().anyMatch(s -> s < 1)) {
                throw new IllegalArgumentException("sizes, iterations and rounds must be positive");
            }
            return o;
        }
    }

    public static void main(String[] args) {
        BenchMain.run("tcp-vs-nio", USAGE, args, a -> run(Options.parse(a), System.out));
    }

    static void run(Options o, PrintStream out) throws Exception {
        out.println(HEADER);
        for (int size : o.sizes()) {
            int warmup = Math.max(1, o.count() / 5);
            ChannelStream.megabytesPerSecond(size, warmup, o.mode());
            NioStream.megabytesPerSecond(size, warmup);
            double[] channel = new double[o.rounds()];
            double[] nio = new double[o.rounds()];
            double[] channelRtt = new double[o.rounds()];
            double[] nioRtt = new double[o.rounds()];
            for (int r = 0; r < o.rounds(); r++) { // alternate, so drift in the machine hits both alike
                channel[r] = ChannelStream.megabytesPerSecond(size, o.count(), o.mode());
                nio[r] = NioStream.megabytesPerSecond(size, o.count());
                channelRtt[r] = ChannelStream.roundTripP50Micros(size, o.roundTrips(), o.mode());
                nioRtt[r] = NioStream.roundTripP50Micros(size, o.roundTrips());
            }
            double c = median(channel);
            double n = median(nio);
            double cr = median(channelRtt);
            double nr = median(nioRtt);
            out.println(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f |", size, c, n, c / n,
                    cr, nr, cr / nr));
        }
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
