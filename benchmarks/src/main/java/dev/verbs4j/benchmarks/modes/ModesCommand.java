package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.cli.CommonOptions;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What the command lines of these benchmarks share: {@code -h} and {@code -v}, and a run that
 * first checks the parsed options (a bad value is a usage error, exit 2), then sets the log level,
 * then measures and prints to stdout.
 *
 * @param <O> the options of one run
 */
abstract class ModesCommand<O> implements Callable<Integer> {
    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    /** The parsed command line as the options of one run; a value out of range is a usage error. */
    abstract O options();

    /** Runs the benchmark and prints its rows. */
    abstract void run(O options, PrintStream out) throws Exception;

    /** {@code --sizes}' list, comma- or space-separated; anything but numbers is a usage error. */
    final List<Integer> sizes(String text) {
        List<Integer> list = new ArrayList<>();
        for (String s : text.trim().split("[,\\s]+")) {
            try {
                list.add(Integer.parseInt(s));
            } catch (NumberFormatException e) {
                throw Cli.usageError(spec, "--sizes takes numbers, got '" + s + "'");
            }
        }
        return list;
    }

    @Override
    public final Integer call() throws Exception {
        O options = options();
        common.applyVerbosity();
        run(options, System.out);
        return 0;
    }
}
