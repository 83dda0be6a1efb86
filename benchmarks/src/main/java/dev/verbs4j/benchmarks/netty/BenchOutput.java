package dev.verbs4j.benchmarks.netty;

import java.util.Arrays;
import java.util.Locale;
import java.util.StringJoiner;

/** The lines the benchmark programs print for benchmarks/netty.sh to read. */
final class BenchOutput {
    private BenchOutput() {}

    /**
     * {@code listening ADDRESS PORT...}, flushed: the script starts the client when it sees this
     * line, and hands it the ports.
     */
    static void listening(String address, int... ports) {
        StringJoiner line = new StringJoiner(" ", "listening " + address + " ", "");
        for (int port : ports) {
            line.add(Integer.toString(port));
        }
        System.out.println(line);
        System.out.flush();
    }

    /** "p50 p99" of round trips in nanoseconds, in microseconds; sorts {@code nanos}. */
    static String p50p99(long[] nanos) {
        Arrays.sort(nanos);
        return String.format(Locale.ROOT, "%.1f %.1f", nanos[nanos.length / 2] / 1e3,
                nanos[(int) (nanos.length * 0.99)] / 1e3);
    }
}
