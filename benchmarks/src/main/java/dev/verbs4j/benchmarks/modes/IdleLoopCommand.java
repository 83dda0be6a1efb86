package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.Cli;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code verbs4j idle-loop}'s command line; the run itself is {@link IdleLoopBench}. */
@Command(name = "idle-loop", description = {"CPU and wake-ups per second of a completion loop holding idle channels",
        "Prints one Markdown row."})
public final class IdleLoopCommand extends ModesCommand<IdleLoopBench.Options> {
    @Option(names = "--channels", paramLabel = "N", description = "channel pairs held idle (default 1)")
    int channels = 1;

    @Option(names = "--seconds", paramLabel = "S", description = "measured idle time (default 10)")
    int seconds = 10;

    @Option(names = "--receiving", description = "an application thread waits in receive on every channel meanwhile")
    boolean receiving;

    @Mixin
    ChannelOptions channel;

    @Override
    void run(IdleLoopBench.Options options, PrintStream out) throws Exception {
        IdleLoopBench.run(options, out);
    }

    /** The parsed command line as a run's options; a count out of range is a usage error. */
    @Override
    IdleLoopBench.Options options() {
        if (channels < 1 || seconds < 1) {
            throw Cli.usageError(spec, "channels and seconds must be positive");
        }
        return new IdleLoopBench.Options(channel.mode, channels, seconds, receiving, channel.transport, channel.bind,
                channel.device, channel.gidIndex);
    }
}
