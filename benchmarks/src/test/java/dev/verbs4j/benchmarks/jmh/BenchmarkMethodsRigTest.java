package dev.verbs4j.benchmarks.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each JMH benchmark's setup, method and teardown, called directly on the rig's device, so a
 * broken benchmark fails here rather than in a long JMH run. Results are checked, times are not.
 */
@Tag("rdma")
class BenchmarkMethodsRigTest {

    @Test
    void bothEmptyPollsFindNothingOnANewCq() throws Throwable {
        EmptyPollBenchmark throughVerbs4j = new EmptyPollBenchmark();
        RawPollBenchmark throughAPlainHandle = new RawPollBenchmark();
        throughVerbs4j.open();
        throughAPlainHandle.open();
        try {
            for (int i = 0; i < 1000; i++) {
                assertEquals(0, throughVerbs4j.emptyPoll());
                assertEquals(0, throughAPlainHandle.rawPoll());
            }
        } finally {
            throughAPlainHandle.close();
            throughVerbs4j.close();
        }
    }

    @Test
    void everyChannelRoundTripGetsEachEchoBackOverRdma() throws Exception {
        ChannelRoundTripBenchmarkTest.everyRoundTripGetsItsEchoBack("rdma");
    }

    @Test
    void postAndPollCompletesEachWriteWithItsOwnWrId() {
        PostPollBenchmark benchmark = new PostPollBenchmark();
        benchmark.size = 4096;
        benchmark.open();
        try {
            for (long expected = 1; expected <= 50; expected++) {
                assertEquals(expected, benchmark.postAndPoll());
            }
        } finally {
            benchmark.close();
        }
    }
}
