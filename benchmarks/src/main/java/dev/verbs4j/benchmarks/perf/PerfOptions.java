package dev.verbs4j.benchmarks.perf;

import dev.verbs4j.examples.cli.Cli;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ParameterException;

/**
 * What {@code verbs4j perf TEST [OPTIONS] [SERVER]} was asked (parsed by {@link PerfCommandLine}:
 * perftest's option letters and long names). Without SERVER this side is the server and waits; with it, the client connects.
 * The client's size list and iteration count are sent to the server, so the server needs only
 * the test name and the device options.
 */
public record PerfOptions(PerfTest test, String serverHost, String device, int ibPort, int gidIndex, List<Integer> sizes,
                          boolean sizesGiven, int iterations, int inlineSize, int txDepth, int rxDepth, int cqModeration,
                          boolean events, int tcpPort, boolean noPeak, int warmup) {

    static final int DEFAULT_TCP_PORT = 18515;
    /** perftest -a: 2 bytes to 8 MiB in powers of two. */
    static final int ALL_SIZES_MAX = 1 << 23;
    /** -I not given: the QP asks for no inline data and sends go through the lkey. */
    static final int INLINE_UNSET = -1;

    public boolean isServer() {
        return serverHost == null;
    }

    /**
     * Parses {@code verbs4j perf}'s arguments (TEST first); see {@link PerfCommandLine} for the
     * options. A bad command line throws IllegalArgumentException with picocli's message.
     */
    public static PerfOptions parse(String[] args) {
        PerfCommandLine line = new PerfCommandLine();
        try {
            Cli.commandLine(line).parseArgs(args);
            return line.options();
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    static List<Integer> allSizes(PerfTest test) {
        if (test == PerfTest.ATOMIC_LAT) {
            return List.of(PerfTest.ATOMIC_SIZE);
        }
        List<Integer> sizes = new ArrayList<>();
        for (int s = 2; s <= ALL_SIZES_MAX; s <<= 1) {
            sizes.add(s);
        }
        return List.copyOf(sizes);
    }

    /** The same options with the client's sizes and iterations (what the server adopts). */
    PerfOptions withRun(List<Integer> runSizes, int runIterations, int runWarmup) {
        return new PerfOptions(test, serverHost, device, ibPort, gidIndex, List.copyOf(runSizes), true, runIterations,
                inlineSize, txDepth, rxDepth, cqModeration, events, tcpPort, noPeak, runWarmup);
    }

    public int maxSize() {
        int max = 0;
        for (int s : sizes) {
            max = Math.max(max, s);
        }
        return max;
    }
}
