package dev.verbs4j.benchmarks.perf;

/**
 * One bandwidth row, computed the way perftest's bandwidth report does. Average: all bytes over
 * the time from the first post to the last completion. Peak: the best rate over any run of
 * consecutive messages i..j, (tcompleted[j] - tposted[i]) / (j - i + 1). MB is 2^20 bytes, as
 * perftest's default report format; MsgRate is millions of messages per second.
 */
public record BandwidthReport(int bytes, int iterations, double peakMBps, double averageMBps, double messageRateMpps) {

    static final double MB = 1 << 20;
    /** perftest skips the quadratic peak search above this many iterations. */
    static final int PEAK_LIMIT = 20_000;

    /** With {@code findPeak} false the peak is reported as 0, as perftest's -N does. */
    public static BandwidthReport compute(int bytes, int iterations, long[] postedNanos, long[] completedNanos,
            boolean findPeak) {
        if (iterations < 1 || iterations > postedNanos.length || iterations > completedNanos.length) {
            throw new IllegalArgumentException("need 1.." + postedNanos.length + " timestamps, got " + iterations);
        }
        double seconds = (completedNanos[iterations - 1] - postedNanos[0]) / 1e9;
        double average = bytes * (double) iterations / seconds / MB;
        double rate = iterations / seconds / 1e6;
        double peak = findPeak && iterations <= PEAK_LIMIT ? bytes / (bestNanosPerMessage(iterations, postedNanos, completedNanos)
                / 1e9) / MB : 0;
        return new BandwidthReport(bytes, iterations, peak, average, rate);
    }

    /** The smallest time per message over all windows of consecutive messages. */
    static double bestNanosPerMessage(int iterations, long[] posted, long[] completed) {
        double best = completed[0] - posted[0];
        for (int i = 0; i < iterations; i++) {
            for (int j = i; j < iterations; j++) {
                double t = (completed[j] - posted[i]) / (double) (j - i + 1);
                if (t < best) {
                    best = t;
                }
            }
        }
        return Math.max(best, 1e-3); // a zero window (clock granularity) must not become infinite bandwidth
    }
}
