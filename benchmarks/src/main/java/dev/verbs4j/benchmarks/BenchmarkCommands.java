package dev.verbs4j.benchmarks;

import dev.verbs4j.benchmarks.modes.IdleLoopCommand;
import dev.verbs4j.benchmarks.modes.ModeBenchCommand;
import dev.verbs4j.benchmarks.modes.ShmVsTcpCommand;
import dev.verbs4j.benchmarks.modes.TcpVsNioCommand;
import dev.verbs4j.benchmarks.perf.PerfCommandLine;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/**
 * This module's commands by their {@code bin/verbs4j} subcommand names, for the top-level
 * {@code verbs4j --help}, the bash completion and the man pages.
 */
public final class BenchmarkCommands {
    private BenchmarkCommands() {}

    /**
     * Subcommand name to its command line, in the order {@code verbs4j --help} lists them.
     *
     * @return a new map of new command lines, owned by the caller
     */
    public static Map<String, CommandLine> all() {
        Map<String, CommandLine> all = new LinkedHashMap<>();
        all.put("perf", new CommandLine(new PerfCommandLine()));
        all.put("mode-bench", new CommandLine(new ModeBenchCommand()));
        all.put("tcp-vs-nio", new CommandLine(new TcpVsNioCommand()));
        all.put("shm-vs-tcp", new CommandLine(new ShmVsTcpCommand()));
        all.put("idle-loop", new CommandLine(new IdleLoopCommand()));
        return all;
    }
}
