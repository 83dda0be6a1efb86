package dev.verbs4j.benchmarks.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BandwidthReportTest {
    @Test
    void averageIsAllBytesOverFirstPostToLastCompletion() {
        // 4 messages of 1 MiB, first post at 0, last completion at 2 s: 2 MB/sec, 2e-6 Mpps
        long[] posted = {0, 10, 20, 30};
        long[] completed = {500_000_000L, 1_000_000_000L, 1_500_000_000L, 2_000_000_000L};
        BandwidthReport r = BandwidthReport.compute(1 << 20, 4, posted, completed, true);
        assertEquals(2.0, r.averageMBps(), 1e-9);
        assertEquals(2e-6, r.messageRateMpps(), 1e-15);
    }

    @Test
    void peakIsTheFastestRunOfConsecutiveMessages() {
        // message 2 alone took 0.25 s (posted at 1.0, completed at 1.25): 4 MB/sec at 1 MiB each
        long[] posted = {0, 500_000_000L, 1_000_000_000L};
        long[] completed = {1_000_000_000L, 1_500_000_000L, 1_250_000_000L};
        BandwidthReport r = BandwidthReport.compute(1 << 20, 3, posted, completed, true);
        assertEquals(4.0, r.peakMBps(), 1e-9);
    }

    @Test
    void withoutPeakSearchThePeakIsZeroAndTheAverageUnchanged() {
        long[] posted = {0, 500_000_000L, 1_000_000_000L};
        long[] completed = {1_000_000_000L, 1_500_000_000L, 1_250_000_000L};
        BandwidthReport r = BandwidthReport.compute(1 << 20, 3, posted, completed, false);
        assertEquals(0.0, r.peakMBps());
        assertEquals(BandwidthReport.compute(1 << 20, 3, posted, completed, true).averageMBps(), r.averageMBps());
    }

    @Test
    void messageRateCountsMessagesPerMicrosecond() {
        long[] posted = new long[1000];
        long[] completed = new long[1000];
        for (int i = 0; i < 1000; i++) {
            posted[i] = i * 1000L;
            completed[i] = i * 1000L + 1000L; // last completion at 1 ms
        }
        BandwidthReport r = BandwidthReport.compute(64, 1000, posted, completed, true);
        assertEquals(1.0, r.messageRateMpps(), 1e-9);           // 1000 messages / 1 ms
        assertEquals(64e6 / (1 << 20), r.averageMBps(), 1e-9);  // 64 MB/s decimal in MiB
    }
}
