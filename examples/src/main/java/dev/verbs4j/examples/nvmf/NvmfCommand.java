package dev.verbs4j.examples.nvmf;

import dev.verbs4j.examples.cli.Cli;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code verbs4j nvmf}: an NVMe over Fabrics (RDMA) host on the command line, spelled like nvme-cli. */
@Command(name = "nvmf", mixinStandardHelpOptions = true,
        description = "NVMe over Fabrics (RDMA) host: discovery, identify, block read/write, benchmark",
        subcommands = {DiscoverCommand.class, IdentifyCommand.class, ReadCommand.class, WriteCommand.class,
                BenchCommand.class})
public final class NvmfCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command tree with the conventions of every program here ({@link Cli#commandLine}: a
     * usage error is one line and a pointer to --help, exit 2, not the whole usage), and errors
     * from the host library printed as one line (exit 1).
     */
    public static CommandLine commandLine() {
        CommandLine cl = Cli.commandLine(new CommandLine(new NvmfCommand()));
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("nvmf " + line.getCommandName() + ": " + e.getMessage());
            return 1;
        });
        return cl;
    }
}
