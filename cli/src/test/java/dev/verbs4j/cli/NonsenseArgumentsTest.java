package dev.verbs4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.benchmarks.BenchmarkCommands;
import dev.verbs4j.examples.ExampleCommands;
import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.nvmf.NvmfCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every subcommand of bin/verbs4j given nonsense: an unknown option, an option without its value,
 * a value that is not a number, an unknown subcommand. Each ends with status 2 and one line naming
 * the command and the problem (and a pointer to --help), never a stack trace or the whole usage.
 * The command lines are built as each program's main builds them, and run in this JVM (main only
 * adds System.exit).
 */
class NonsenseArgumentsTest {
    /** The wire-compatible programs keep their C tools' conventions (usage and exit 1), as rdma-core's do. */
    private static final Set<String> C_COMPATIBLE = Set.of("rc-pingpong", "ud-pingpong", "rping");

    /** The command line of each subcommand's main, by name. */
    private static Map<String, Supplier<CommandLine>> entryPoints() {
        Map<String, Supplier<CommandLine>> all = new LinkedHashMap<>();
        for (String name : ExampleCommands.all().keySet()) {
            all.put(name, () -> Cli.commandLine(ExampleCommands.all().get(name)));
        }
        for (String name : BenchmarkCommands.all().keySet()) {
            all.put(name, () -> Cli.commandLine(BenchmarkCommands.all().get(name)));
        }
        all.put("nvmf", NvmfCommand::commandLine);
        C_COMPATIBLE.forEach(all::remove);
        return all;
    }

    private record Run(String command, List<String> args, int exit, String err, String out) {
        @Override
        public String toString() {
            return command + " " + String.join(" ", args) + " -> " + exit + "\nstderr:\n" + err + "stdout:\n" + out;
        }
    }

    @Test
    void nonsenseArgumentsExitTwoWithOneLine() {
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (Map.Entry<String, Supplier<CommandLine>> e : entryPoints().entrySet()) {
            for (List<String> path : leaves(e.getValue().get(), List.of())) {
                for (List<String> nonsense : nonsense(e.getValue().get(), path)) {
                    cases++;
                    Run run = run(e.getKey(), e.getValue().get(), nonsense);
                    String why = judge(run);
                    if (why != null) {
                        failures.add(why + ": " + run);
                    }
                }
            }
        }
        assertTrue(cases >= 30, cases + " cases");
        assertEquals(List.of(), failures);
    }

    /** What is wrong with a run's answer to nonsense, or null. */
    private static String judge(Run run) {
        if (run.exit != 2) {
            return "exit " + run.exit;
        }
        if (run.err.contains("\tat ") || run.err.contains("Exception")) {
            return "a stack trace";
        }
        List<String> lines = run.err.lines().filter(l -> !l.isBlank()).toList();
        boolean pointer = lines.size() == 2 && lines.get(1).startsWith("Try '");
        if (lines.size() != 1 && !pointer) {
            return lines.size() + " lines";
        }
        if (!lines.getFirst().startsWith("verbs4j " + run.command)) {
            return "a line that does not name the command";
        }
        return null;
    }

    /** The paths to the commands that run (a group's subcommands, or the command itself). */
    private static List<List<String>> leaves(CommandLine cl, List<String> path) {
        List<List<String>> leaves = new ArrayList<>();
        if (cl.getSubcommands().isEmpty()) {
            leaves.add(path);
            return leaves;
        }
        leaves.add(path); // the group itself, given an unknown subcommand
        cl.getSubcommands().forEach((name, sub) -> {
            List<String> p = new ArrayList<>(path);
            p.add(name);
            leaves.addAll(leaves(sub, p));
        });
        return leaves;
    }

    /** The nonsense for the command at {@code path}: from what its options take. */
    private static List<List<String>> nonsense(CommandLine root, List<String> path) {
        CommandLine cl = root;
        for (String name : path) {
            cl = cl.getSubcommands().get(name);
        }
        List<List<String>> cases = new ArrayList<>();
        if (!cl.getSubcommands().isEmpty()) {
            cases.add(with(path, "no-such-subcommand"));
            return cases;
        }
        CommandSpec spec = cl.getCommandSpec();
        cases.add(with(path, "--no-such-option"));
        OptionSpec valued = null, numeric = null;
        for (OptionSpec o : spec.options()) {
            if (o.usageHelp() || o.versionHelp() || o.arity().min() < 1) {
                continue;
            }
            valued = valued == null ? o : valued;
            Class<?> type = o.type();
            if (numeric == null && (type == int.class || type == long.class || type == Integer.class
                    || type == Long.class || type == double.class)) {
                numeric = o;
            }
        }
        if (valued != null) {
            cases.add(with(path, valued.longestName()));
        }
        if (numeric != null) {
            cases.add(with(path, numeric.longestName(), "not-a-number"));
        }
        return cases;
    }

    private static List<String> with(List<String> path, String... args) {
        List<String> all = new ArrayList<>(path);
        all.addAll(List.of(args));
        return all;
    }

    /** Runs one case, with what it writes to System.out and System.err too (a logger's lines among them). */
    private static Run run(String command, CommandLine cl, List<String> args) {
        StringWriter err = new StringWriter(), out = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(out, true));
        PrintStream stdout = System.out, stderr = System.err;
        ByteArrayOutputStream directOut = new ByteArrayOutputStream(), directErr = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(directOut, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(directErr, true, StandardCharsets.UTF_8));
            exit = cl.execute(args.toArray(String[]::new));
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        return new Run(command, args, exit, err + directErr.toString(StandardCharsets.UTF_8),
                out + directOut.toString(StandardCharsets.UTF_8));
    }
}
