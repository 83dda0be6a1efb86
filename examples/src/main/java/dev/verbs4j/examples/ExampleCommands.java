package dev.verbs4j.examples;

import dev.verbs4j.examples.nvmf.NvmfCommand;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/**
 * This module's commands by their {@code bin/verbs4j} subcommand names, for the top-level
 * {@code verbs4j --help}, the bash completion and the man pages. Each program's own main runs
 * it alone.
 */
public final class ExampleCommands {
    private ExampleCommands() {}

    /** Subcommand name to its command line, in the order {@code verbs4j --help} lists them. */
    public static Map<String, CommandLine> all() {
        Map<String, CommandLine> all = new LinkedHashMap<>();
        all.put("devices", new CommandLine(DevicesCommand.class));
        all.put("pingpong", new CommandLine(PingpongCommand.class));
        all.put("doctor", new CommandLine(DoctorCommand.class));
        all.put("rc-pingpong", new CommandLine(PingpongOptions.spec(PingpongOptions.Flavor.RC)));
        all.put("ud-pingpong", new CommandLine(PingpongOptions.spec(PingpongOptions.Flavor.UD)));
        all.put("rping", new CommandLine(new RpingOptions()));
        all.put("nvmf", dev.verbs4j.examples.nvmf.NvmfCommand.commandLine());
        return all;
    }
}
