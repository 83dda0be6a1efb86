package dev.verbs4j.benchmarks.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ChannelRoundTripBenchmark}'s setup, methods and teardown called directly over the
 * transports a host without RDMA has, so a broken benchmark fails here rather than in a long JMH
 * run (rdma: {@link BenchmarkMethodsRigTest}). Results are checked, times are not.
 */
class ChannelRoundTripBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "shm"})
    void everyChannelRoundTripGetsEachEchoBack(String transport) throws Exception {
        everyRoundTripGetsItsEchoBack(transport);
    }

    static void everyRoundTripGetsItsEchoBack(String transport) throws Exception {
        for (boolean inPlace : new boolean[] {true, false}) {
            ChannelRoundTripBenchmark benchmark = new ChannelRoundTripBenchmark();
            benchmark.size = 64;
            benchmark.transport = transport;
            benchmark.open(inPlace);
            try {
                assertEquals(transport, benchmark.transportLabel());
                for (long expected = 1; expected <= 50; expected++) {
                    if (inPlace) {
                        assertEquals(expected, benchmark.offerAndReadInPlace());
                    } else {
                        assertEquals(64, benchmark.sendAndReceive());
                        assertEquals(64, benchmark.offerAndReceiveIntoBuffer());
                    }
                }
            } finally {
                benchmark.close();
            }
        }
    }
}
