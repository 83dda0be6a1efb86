package dev.verbs4j.benchmarks;

import dev.verbs4j.benchmarks.perf.PerfCommandLine;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * This module's commands by their {@code bin/verbs4j} subcommand names, for the top-level
 * {@code verbs4j --help}, the bash completion and the man pages. {@code mode-bench} and
 * {@code tcp-vs-nio} still parse their own command lines: here they are named and described
 * only, and their {@code --help} is their own.
 */
public final class BenchmarkCommands {
    private BenchmarkCommands() {}

    /** Subcommand name to its command line, in the order {@code verbs4j --help} lists them. */
    public static Map<String, CommandLine> all() {
        Map<String, CommandLine> all = new LinkedHashMap<>();
        all.put("perf", new CommandLine(new PerfCommandLine()));
        all.put("mode-bench", describedOnly("mode-bench",
                "channel round trip and CPU seconds of one completion mode (busy, event, adaptive)"));
        all.put("tcp-vs-nio", describedOnly("tcp-vs-nio",
                "the TCP fallback channel's throughput next to a plain NIO socket loop (loopback)"));
        all.put("idle-loop", describedOnly("idle-loop",
                "CPU and wake-ups per second of a completion loop holding idle channels"));
        return all;
    }

    private static CommandLine describedOnly(String name, String summary) {
        CommandSpec spec = CommandSpec.create().name(name);
        spec.usageMessage().description(summary, "Options: see verbs4j " + name + " --help.");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("this text").build());
        return new CommandLine(spec);
    }
}
