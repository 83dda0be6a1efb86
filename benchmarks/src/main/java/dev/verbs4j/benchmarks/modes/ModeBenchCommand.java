package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.Cli;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code verbs4j mode-bench}'s command line; the run itself is {@link CompletionModeBench}. */
@Command(name = "mode-bench",
        customSynopsis = {"${COMMAND-FULL-NAME} --server [OPTIONS]    echo one client, report CPU",
                "       ${COMMAND-FULL-NAME} [OPTIONS] HOST         measure, print one row"},
        description = "channel round trip and CPU seconds of one completion mode (busy, event, adaptive)")
public final class ModeBenchCommand extends ModesCommand<ModeBenchOptions> {
    @Parameters(arity = "0..1", paramLabel = "HOST", description = "the server's address (client side)")
    String host;

    @Option(names = "--server", description = "wait for one client, echo its messages, report this side's CPU")
    boolean server;

    @Option(names = "--thread", paramLabel = "loop|app", description = {"who answers each message: the listener on "
            + "the completion loop thread (default), or an application thread that sends and waits for the reply "
            + "(as verbs4j pingpong does); both sides"})
    String thread = "loop";

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES", description = "message size (default 64)")
    int size = 64;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "measured round trips (default 10000)")
    int iterations = 10_000;

    @Option(names = "--warmup", paramLabel = "N", description = "round trips before measuring (default 1000)")
    int warmup = 1000;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "bootstrap TCP port (default 18710)")
    int port = 18710;

    @Mixin
    ChannelOptions channel;

    @Override
    void run(ModeBenchOptions options, PrintStream out) throws Exception {
        CompletionModeBench.run(options, out);
    }

    /** The parsed command line as a run's options; a missing or contradictory choice is a usage error. */
    @Override
    ModeBenchOptions options() {
        if (server == (host != null)) {
            throw Cli.usageError(spec, "give either --server or the server's HOST");
        }
        if (size < 1 || iterations < 1 || warmup < 0) {
            throw Cli.usageError(spec, "size and iterations must be positive, warm-up not negative");
        }
        boolean appThread = switch (thread) {
            case "loop" -> false;
            case "app" -> true;
            default -> throw Cli.usageError(spec, "--thread must be loop or app, got '" + thread + "'");
        };
        return new ModeBenchOptions(server, host, channel.bind, port, channel.transport, channel.mode, appThread, size,
                iterations, warmup, channel.device, channel.gidIndex);
    }
}
