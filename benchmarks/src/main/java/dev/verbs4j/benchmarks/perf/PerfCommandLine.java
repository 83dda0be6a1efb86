package dev.verbs4j.benchmarks.perf;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.cli.CommonOptions;
import dev.verbs4j.examples.cli.WordConverter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code verbs4j perf}'s command line: perftest's option letters and long names, in every spelling
 * perftest's getopt_long takes ({@code -s64}, {@code -s 64}, {@code --size=64}, {@code --size 64}).
 * Defaults that depend on the test (iterations, send queue depth, size) are filled in by
 * {@link #options()}.
 */
@Command(name = "perf",
        customSynopsis = {"${COMMAND-FULL-NAME} TEST [OPTIONS]            start a server and wait for the client",
                "       ${COMMAND-FULL-NAME} TEST [OPTIONS] HOST       connect to the server at HOST"},
        description = {"perftest-style latency and bandwidth tests (send_lat, write_bw, ...)",
                "TEST: send_lat write_lat read_lat atomic_lat send_bw write_bw read_bw (or perftest's ib_ names).",
                "The client's sizes and iterations are used by both sides."})
public final class PerfCommandLine implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TEST", converter = TestConverter.class, description = "the test to run")
    PerfTest test;

    @Parameters(index = "1", arity = "0..1", paramLabel = "HOST", description = "the server (client side only)")
    String host;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "RDMA device (default: the first one)")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "PORT", description = "device port (default 1)")
    int ibPort = 1;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "N", description = "GID index (default: a RoCE v2 IPv4 GID)")
    int gidIndex = -1;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES",
            description = "message size (default 2 for latency, 65536 for bandwidth)")
    Integer size;

    @Option(names = {"-a", "--all"}, description = "all sizes from 2 to 2^23")
    boolean all;

    @Option(names = {"-n", "--iters"}, paramLabel = "N",
            description = "iterations (at least 5; default 1000 latency, 5000 bandwidth)")
    Integer iterations;

    @Option(names = {"-I", "--inline_size"}, paramLabel = "N", description = "send up to N bytes inline (default 0: no inline)")
    int inlineSize = PerfOptions.INLINE_UNSET;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N", description = "send queue depth (default 128 bandwidth, 1 latency)")
    Integer txDepth;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "N", description = "receive queue depth (default 512)")
    int rxDepth = 512;

    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N",
            description = "one signaled completion every N sends (bandwidth, default 100)")
    int cqModeration = 100;

    @Option(names = {"-e", "--events"}, description = "sleep on CQ events instead of busy polling")
    boolean events;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT",
            description = "TCP port of the out-of-band exchange (default 18515)")
    int tcpPort = PerfOptions.DEFAULT_TCP_PORT;

    @Option(names = {"-N", "--noPeak"}, description = "skip the peak bandwidth search")
    boolean noPeak;

    @Option(names = "--warmup", paramLabel = "N", description = {"before each size, rounds of N untimed iterations "
            + "until the JIT compiles nothing more (default 0: none, like perftest)"})
    int warmup;

    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    /** TEST as {@link PerfTest#parse} reads it; an unknown one is a usage error that lists the tests. */
    static final class TestConverter extends WordConverter<PerfTest> {
        TestConverter() {
            super(PerfTest::parse);
        }
    }

    @Override
    public Integer call() {
        PerfOptions options = options();
        common.applyVerbosity();
        new PerfCommand(System.out).run(options);
        return 0;
    }

    /** The parsed command line as the options a run takes; a value out of range is a usage error. */
    PerfOptions options() {
        int iters = iterations != null ? iterations : test.defaultIterations();
        int tx = txDepth != null ? txDepth : test.isLatency() ? 1 : 128;
        atLeast("-i", ibPort, 1);
        atLeast("-x", gidIndex == -1 ? 0 : gidIndex, 0);
        atLeast("-s", size == null ? 1 : size, 1);
        atLeast("-n", iters, 5);
        atLeast("-I", inlineSize == PerfOptions.INLINE_UNSET ? 0 : inlineSize, 0);
        atLeast("-t", tx, 1);
        atLeast("-r", rxDepth, 1);
        atLeast("-Q", cqModeration, 1);
        atLeast("-p", tcpPort, 1);
        atLeast("--warmup", warmup, 0);
        if (test == PerfTest.ATOMIC_LAT && size != null && size != PerfTest.ATOMIC_SIZE) {
            throw Cli.usageError(spec, "atomics move 8 bytes; -s must be 8 or absent");
        }
        if (test == PerfTest.WRITE_LAT && events) {
            throw Cli.usageError(spec, "write_lat detects arrivals by polling memory; -e does not apply");
        }
        // at least one signaled send per queue's worth, or the send queue fills up
        int cqMod = !test.isLatency() && cqModeration > tx ? tx : cqModeration;
        List<Integer> sizes = all ? PerfOptions.allSizes(test) : List.of(size != null ? size : test.defaultSize());
        return new PerfOptions(test, host, device, ibPort, gidIndex, sizes, size != null || all, iters, inlineSize, tx,
                rxDepth, cqMod, events, tcpPort, noPeak, warmup);
    }

    private void atLeast(String option, int value, int min) {
        if (value < min) {
            throw Cli.usageError(spec, "option " + option + " must be at least " + min + ", got " + value);
        }
    }
}
