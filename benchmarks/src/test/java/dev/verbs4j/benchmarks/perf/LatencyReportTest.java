package dev.verbs4j.benchmarks.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LatencyReportTest {
    /** Post times whose consecutive deltas are the given nanoseconds. */
    private static long[] postsWithDeltas(long... deltas) {
        long[] posted = new long[deltas.length + 1];
        for (int i = 0; i < deltas.length; i++) {
            posted[i + 1] = posted[i] + deltas[i];
        }
        return posted;
    }

    @Test
    void dropsTheTwoLargestDeltasAndHalvesRoundTrips() {
        // 7 deltas (µs): 10 12 14 16 18 | 90 100 dropped; kept n = 5
        long[] posted = postsWithDeltas(14_000, 100_000, 10_000, 18_000, 90_000, 12_000, 16_000);
        LatencyReport r = LatencyReport.compute(64, posted, 8, 2);
        assertEquals(64, r.bytes());
        assertEquals(8, r.iterations());
        assertEquals(5.0, r.tMin(), 1e-9);            // 10 / 2
        assertEquals(7.0, r.tTypical(), 1e-9);        // median 14 / 2
        assertEquals(7.0, r.tAvg(), 1e-9);            // (10+12+14+16+18)/5/2
        assertEquals(Math.sqrt(2.0), r.tStdev(), 1e-9); // one-way deviations -2 -1 0 1 2: variance 2
        assertEquals(45.0, r.tMax(), 1e-9);           // perftest prints sorted[n] = 90 / 2
        assertEquals(45.0, r.p99(), 1e-9);            // sorted[ceil(5 * 0.99)] = sorted[5]
        assertEquals(45.0, r.p999(), 1e-9);
    }

    @Test
    void readAndAtomicAreNotHalved() {
        long[] posted = postsWithDeltas(20_000, 20_000, 20_000, 20_000, 20_000, 20_000);
        LatencyReport r = LatencyReport.compute(8, posted, 7, 1);
        assertEquals(20.0, r.tTypical(), 1e-9);
        assertEquals(0.0, r.tStdev(), 1e-9);
    }

    @Test
    void evenCountMedianIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, LatencyReport.median(new long[] {1, 2, 3, 4, 99}, 4), 1e-12);
        assertEquals(3.0, LatencyReport.median(new long[] {1, 2, 3, 4, 5}, 5), 1e-12);
    }

    @Test
    void percentilesIndexLikePerftest() {
        // 1000 iterations: 999 deltas, 997 kept; 99% -> ceil(987.03) = 988, 99.9% -> ceil(996.003) = 997
        assertEquals(988, LatencyReport.percentileIndex(997, 0.99));
        assertEquals(997, LatencyReport.percentileIndex(997, 0.999));
        long[] posted = new long[1000];
        for (int i = 1; i < posted.length; i++) {
            posted[i] = posted[i - 1] + i * 1000L; // delta i-1 is i µs: 1..999
        }
        LatencyReport r = LatencyReport.compute(2, posted, 1000, 1);
        assertEquals(989.0, r.p99(), 1e-9);
        assertEquals(998.0, r.p999(), 1e-9);
        assertEquals(499.0, r.tTypical(), 1e-9); // kept 1..997, median 499
    }

    @Test
    void refusesFewerThanFiveIterations() {
        assertThrows(IllegalArgumentException.class, () -> LatencyReport.compute(2, new long[4], 4, 2));
    }
}
