package dev.verbs4j.cli;

import dev.verbs4j.benchmarks.BenchmarkCommands;
import dev.verbs4j.examples.ExampleCommands;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code verbs4j}: every program behind {@code bin/verbs4j} as one picocli command, for the
 * top-level help, the bash completion and the man pages. {@code bin/verbs4j SUBCOMMAND} runs each
 * program's own main from its module, so a program never waits for this module to be built.
 */
@Command(name = "verbs4j", synopsisSubcommandLabel = "SUBCOMMAND",
        description = "RDMA verbs for Java: devices, channel ping-pong, perftest-style benchmarks, the doctor, and "
                + "programs wire-compatible with rdma-core's.",
        commandListHeading = "%nSubcommands (every subcommand takes --help):%n",
        footer = {"%nBuild first with:  mvn -DskipTests install   (JDK 25)",
                "On a host without RDMA, run inside the soft-RoCE rig:  ci/rig run bin/verbs4j SUBCOMMAND ...",
                "Bash completion: source cli/target/verbs4j_completion; man pages (AsciiDoc): cli/target/man/"})
public final class Verbs4jCommand implements Runnable {
    @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

    @Spec
    CommandSpec spec;

    /** The top-level command with no subcommand yet; {@link #commandLine()} adds them. */
    public Verbs4jCommand() {}

    /** bin/verbs4j with no subcommand: the usage, as a usage error. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand");
    }

    /**
     * The top-level command with every subcommand, in the order the help lists them.
     *
     * @return a new command line, owned by the caller; not thread-safe (picocli's parsers are not)
     */
    public static CommandLine commandLine() {
        Map<String, CommandLine> all = new LinkedHashMap<>(ExampleCommands.all());
        all.putAll(BenchmarkCommands.all());
        CommandLine top = new CommandLine(new Verbs4jCommand());
        all.forEach((name, sub) -> {
            sub.getCommandSpec().name(name);
            top.addSubcommand(name, sub);
        });
        return top;
    }

    /**
     * Parses {@code args} against the top-level command and exits with picocli's status:
     * {@code --help} prints the usage of every subcommand.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
