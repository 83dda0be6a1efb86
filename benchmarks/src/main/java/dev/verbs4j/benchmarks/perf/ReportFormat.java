package dev.verbs4j.benchmarks.perf;

import java.util.Locale;

/**
 * perftest's report layout, column for column, so a verbs4j run reads like a perftest run.
 * Latency figures are µs, bandwidth MB/sec (2^20 bytes), message rate Mpps.
 */
public final class ReportFormat {
    public static final String RULE = "-".repeat(87);
    public static final String LATENCY_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
            + "    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    public static final String BANDWIDTH_HEADER =
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";

    private ReportFormat() {}

    public static String header(PerfTest test) {
        return test.isLatency() ? LATENCY_HEADER : BANDWIDTH_HEADER;
    }

    public static String row(LatencyReport r) {
        return String.format(Locale.ROOT,
                " %-7d %-10d   %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f",
                r.bytes(), r.iterations(), r.tMin(), r.tMax(), r.tTypical(), r.tAvg(), r.tStdev(), r.p99(), r.p999());
    }

    public static String row(BandwidthReport r) {
        return String.format(Locale.ROOT, " %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f",
                r.bytes(), r.iterations(), r.peakMBps(), r.averageMBps(), r.messageRateMpps());
    }

    /** The title block perftest prints before connecting, centred the same way. */
    public static String title(PerfTest test) {
        return RULE + System.lineSeparator() + " ".repeat(20) + test.title();
    }

    /** "key : value" parameter lines, perftest's spacing. */
    public static String parameter(String key, Object value) {
        return String.format(Locale.ROOT, " %-16s: %s", key, value);
    }
}
