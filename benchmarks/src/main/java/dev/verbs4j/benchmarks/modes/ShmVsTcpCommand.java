package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.Cli;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code verbs4j shm-vs-tcp}'s command line; the run itself is {@link ShmVsTcpBench}. */
@Command(name = "shm-vs-tcp", description = {"the shared-memory channel in each mode next to the TCP channel, "
        + "plain NIO and two threads spinning on shared words (this host)", "Prints one Markdown table: round-trip "
        + "p50/p99 and stream throughput per message size and path; then an idle shm channel's wake-ups and CPU."})
public final class ShmVsTcpCommand extends ModesCommand<ShmVsTcpBench.Options> {
    @Option(names = {"-s", "--sizes"}, paramLabel = "LIST",
            description = "message sizes, comma- or space-separated (default 64,4096,65536)")
    String sizes = "64,4096,65536";

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "messages per stream (default 20000)")
    int messages = 20_000;

    @Option(names = "--rtt-iters", paramLabel = "N", description = "round trips per path (default 20000)")
    int roundTrips = 20_000;

    @Option(names = "--warmup", paramLabel = "N", description = "untimed messages and round trips per size and "
            + "path before the measured ones (default 12000: C2 compiles a method after 10 000 calls)")
    int warmup = 12_000;

    @Option(names = "--idle-seconds", paramLabel = "S", description = "seconds an shm channel in EVENT mode is "
            + "left idle while its loops' wake-ups and CPU are counted, without and with a thread in receive "
            + "(default 5; 0: no idle rows)")
    int idleSeconds = 5;

    @Override
    void run(ShmVsTcpBench.Options options, PrintStream out) throws Exception {
        ShmVsTcpBench.run(options, out);
    }

    @Override
    ShmVsTcpBench.Options options() {
        List<Integer> list = sizes(sizes);
        if (messages < 1 || roundTrips < 10 || warmup < 0 || idleSeconds < 0 || list.stream().anyMatch(s -> s < 1)) {
            throw Cli.usageError(spec, "sizes and iterations must be positive (at least 10 round trips), "
                    + "the warm-up and the idle seconds not negative");
        }
        return new ShmVsTcpBench.Options(list, messages, roundTrips, warmup, idleSeconds);
    }
}
