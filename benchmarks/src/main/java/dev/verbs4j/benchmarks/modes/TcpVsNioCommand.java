package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.cli.CompletionModeConverter;
import dev.verbs4j.loop.CompletionMode;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code verbs4j tcp-vs-nio}'s command line; the run itself is {@link TcpFallbackVsNioBench}. */
@Command(name = "tcp-vs-nio", description = {"the TCP fallback channel's throughput next to a plain NIO socket loop "
        + "(loopback)", "Prints Markdown tables: the median of the rounds, the median and range of each round's own ratios, "
        + "the best round, and every round."})
public final class TcpVsNioCommand extends ModesCommand<TcpFallbackVsNioBench.Options> {
    @Option(names = {"-s", "--sizes"}, paramLabel = "LIST",
            description = "message sizes, comma- or space-separated (default 64,4096,65536)")
    String sizes = "64,4096,65536";

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "messages per pass (default 20000)")
    Integer count;

    @Option(names = "--seconds", paramLabel = "S", description = "instead of -n: messages per stream pass sized, "
            + "from the warm-up, to about S seconds of plain NIO (the channel sends as many)")
    Double passSeconds;

    @Option(names = "--rounds", paramLabel = "N", description = "measured passes per size and side (default 3)")
    int rounds = 3;

    @Option(names = "--rtt-iters", paramLabel = "N", description = "round trips per pass (default 2000)")
    int roundTrips = 2000;

    @Option(names = "--warmup", paramLabel = "N", description = "untimed messages and round trips per size and "
            + "side before the measured passes (default 12000: C2 compiles a method after 10 000 calls)")
    int warmup = 12_000;

    @Option(names = "--mode", paramLabel = "busy|event|adaptive", converter = CompletionModeConverter.class,
            description = "the channel's completion mode (default event)")
    CompletionMode mode = CompletionMode.EVENT;

    @Override
    void run(TcpFallbackVsNioBench.Options options, PrintStream out) throws Exception {
        TcpFallbackVsNioBench.run(options, out);
    }

    /** The parsed command line as a run's options; a size or count out of range is a usage error. */
    @Override
    TcpFallbackVsNioBench.Options options() {
        List<Integer> list = sizes(sizes);
        if (count != null && passSeconds != null) {
            throw Cli.usageError(spec, "give -n or --seconds, not both");
        }
        if (passSeconds != null && !(passSeconds > 0)) {
            throw Cli.usageError(spec, "--seconds must be positive");
        }
        int messages = count == null ? 20_000 : count;
        if (messages < 1 || rounds < 1 || roundTrips < 1 || warmup < 0 || list.stream().anyMatch(s -> s < 1)) {
            throw Cli.usageError(spec, "sizes, iterations and rounds must be positive, the warm-up not negative");
        }
        return new TcpFallbackVsNioBench.Options(list, messages, passSeconds == null ? 0 : passSeconds, rounds, mode,
                roundTrips, warmup);
    }
}
