package dev.verbs4j.benchmarks.perf;

import java.util.Arrays;

/**
 * One latency row, computed the way perftest's latency report does: the deltas between
 * consecutive post timestamps are sorted, the two largest are dropped as warm-up/outliers,
 * and every figure is divided by the RTT factor (2 for ping-pong tests, which report one-way
 * latency; 1 for read and atomic, whose completion already is the round trip).
 *
 * @param tMin     smallest delta
 * @param tMax     perftest prints delta[n] where n is the kept count, i.e. the larger of the dropped pair's lower one
 * @param tTypical median of the kept deltas
 * @param p99      delta[ceil(n * 0.99)]
 * @param p999     delta[ceil(n * 0.999)]
 */
public record LatencyReport(int bytes, int iterations, double tMin, double tMax, double tTypical, double tAvg,
                            double tStdev, double p99, double p999) {

    /** perftest drops this many of the largest deltas. */
    static final int DROPPED_TAIL = 2;

    /**
     * @param postedNanos one post timestamp per iteration (System.nanoTime); at least 5 of them,
     *                    as perftest requires
     * @param rttFactor   2 for one-way latency of ping-pong tests, 1 otherwise
     */
    public static LatencyReport compute(int bytes, long[] postedNanos, int iterations, int rttFactor) {
        if (iterations < 5 || iterations > postedNanos.length) {
            throw new IllegalArgumentException("need 5.." + postedNanos.length + " timestamps, got " + iterations);
        }
        int deltas = iterations - 1;
        long[] delta = new long[deltas];
        for (int i = 0; i < deltas; i++) {
            delta[i] = postedNanos[i + 1] - postedNanos[i];
        }
        Arrays.sort(delta);
        int n = deltas - DROPPED_TAIL;
        double unit = 1000.0 * rttFactor; // ns -> µs, and RTT -> one way
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += delta[i] / unit;
        }
        double avg = sum / n;
        double squares = 0;
        for (int i = 0; i < n; i++) {
            double d = avg - delta[i] / unit;
            squares += d * d;
        }
        return new LatencyReport(bytes, iterations, delta[0] / unit, delta[n] / unit, median(delta, n) / unit, avg,
                Math.sqrt(squares / n), delta[percentileIndex(n, 0.99)] / unit,
                delta[percentileIndex(n, 0.999)] / unit);
    }

    /** Median of the first n sorted values: the mean of the middle two when n is even. */
    static double median(long[] sorted, int n) {
        return n % 2 == 0 ? (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 : sorted[n / 2];
    }

    static int percentileIndex(int n, double fraction) {
        return (int) Math.ceil(n * fraction);
    }
}
