package dev.verbs4j.benchmarks.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The rows must read exactly like perftest 4.5's, tabs included (compare.sh parses both alike). */
class ReportFormatTest {
    @Test
    void latencyRowMatchesPerftest() {
        String perftest = " 2       200          12.07          231.41       12.54    \t       13.01       \t1.91   \t\t32.71   "
                + "\t\t231.41 ";
        assertEquals(perftest, ReportFormat.row(new LatencyReport(2, 200, 12.07, 231.41, 12.54, 13.01, 1.91, 32.71,
                231.41)));
    }

    @Test
    void bandwidthRowMatchesPerftest() {
        String perftest = " 64         500              3.25               2.91   \t\t   0.047616";
        assertEquals(perftest, ReportFormat.row(new BandwidthReport(64, 500, 3.25, 2.91, 0.047616)));
    }

    @Test
    void rowFieldsSplitLikePerftestColumns() {
        String[] f = ReportFormat.row(new LatencyReport(4096, 1000, 1, 2, 3.5, 4, 5, 6, 7)).trim().split("\\s+");
        assertEquals("4096", f[0]);
        assertEquals("3.50", f[4]); // t_typical, what compare.sh reads
        String[] b = ReportFormat.row(new BandwidthReport(65536, 5000, 100, 90.5, 0.1)).trim().split("\\s+");
        assertEquals("90.50", b[3]); // BW average
    }
}
