package dev.verbs4j.examples.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * How the programs here run their command lines: picocli parses (GNU spellings: {@code -s64},
 * {@code -s 64}, {@code --size=64}, {@code --size 64}, clustered flags, operands anywhere), the
 * usage says {@code verbs4j NAME}, a usage error prints its message and a pointer to {@code --help}
 * and exits 2, a failure prints {@code verbs4j NAME: message} and exits 1. Shared by every
 * program behind bin/verbs4j (the benchmarks' CLIs too).
 */
public final class Cli {
    /** Exit status of a bad command line (the wire-compatible programs keep their C tool's). */
    public static final int USAGE_ERROR = 2;
    public static final String PROGRAM = "verbs4j";

    private Cli() {}

    /** A command line with this module's conventions, its usage titled "verbs4j NAME". */
    public static CommandLine commandLine(Object command) {
        CommandLine cl = command instanceof CommandLine c ? c : new CommandLine(command);
        CommandSpec spec = cl.getCommandSpec();
        spec.name(PROGRAM + " " + spec.name()); // run alone; under the top-level command it is a subcommand
        cl.setExpandAtFiles(false); // getopt reads "@x" as a value, not as a file of arguments
        cl.setParameterExceptionHandler((e, args) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println(e.getCommandLine().getCommandSpec().qualifiedName() + ": " + e.getMessage());
            err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
            return USAGE_ERROR;
        });
        cl.setExecutionExceptionHandler((e, failed, parsed) -> {
            failed.getErr().println(failed.getCommandSpec().qualifiedName() + ": " + message(e));
            if (Boolean.getBoolean("verbs4j.trace")) { // VERBS4J_JAVA_OPTS=-Dverbs4j.trace=true
                e.printStackTrace(failed.getErr());
            }
            return 1;
        });
        return cl;
    }

    /** Runs the command and exits with its status (slf4j or a peer's loop must not keep the JVM alive). */
    public static void exit(Object command, String[] args) {
        System.exit(commandLine(command).execute(args));
    }

    public static String message(Throwable e) {
        String m = e.getMessage() != null ? e.getMessage() : e.toString();
        return e.getCause() != null && e.getCause().getMessage() != null && !m.contains(e.getCause().getMessage())
                ? m + " (" + e.getCause().getMessage() + ")" : m;
    }

    /** A usage error found after parsing (a value out of range, a missing operand). */
    public static ParameterException usageError(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
