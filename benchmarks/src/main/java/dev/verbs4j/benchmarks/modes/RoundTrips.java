package dev.verbs4j.benchmarks.modes;

import java.util.Arrays;

/** Round-trip times in nanoseconds, summarised in microseconds. */
record RoundTrips(double p50Micros, double avgMicros) {

    static RoundTrips of(long[] nanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("no round trips");
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double avg = Arrays.stream(sorted).average().orElseThrow();
        return new RoundTrips(sorted[(sorted.length - 1) / 2] / 1e3, avg / 1e3);
    }
}
