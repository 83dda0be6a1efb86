package dev.verbs4j.benchmarks.modes;

import java.util.Arrays;

/** Round-trip times in nanoseconds, summarised in microseconds. */
record RoundTrips(double p50Micros, double p99Micros, double avgMicros) {

    static RoundTrips of(long[] nanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("no round trips");
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double avg = Arrays.stream(sorted).average().orElseThrow();
        return new RoundTrips(percentile(sorted, 50) / 1e3, percentile(sorted, 99) / 1e3, avg / 1e3);
    }

    /** The nearest-rank percentile of sorted values. */
    private static long percentile(long[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
