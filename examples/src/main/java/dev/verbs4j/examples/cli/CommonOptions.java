package dev.verbs4j.examples.cli;

import picocli.CommandLine.Option;

/**
 * The options every verbs4j command of our own takes: {@code -h}/{@code --help}, and
 * {@code -v}/{@code -vv}, how much of the library's logging a program shows. Results go to stdout
 * once; the library's log goes to stderr, WARN and above by default, INFO with -v, DEBUG with -vv.
 * Mixed into the commands that print results; the wire-compatible programs keep their C options
 * and log at the default.
 */
public final class CommonOptions {
    public static final String LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    public boolean help;

    @Option(names = {"-v", "--verbose"}, description = "library log on stderr: -v INFO, -vv DEBUG (default: warnings only)")
    public boolean[] verbose = new boolean[0];

    /** Call before the first logger exists: slf4j-simple reads its settings once. */
    public void applyVerbosity() {
        configure(verbose.length);
    }

    public static void configure(int level) {
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        if (level > 0 || System.getProperty(LEVEL) == null) { // -D from VERBS4J_JAVA_OPTS stands unless -v
            System.setProperty(LEVEL, level >= 2 ? "debug" : level == 1 ? "info" : "warn");
        }
    }
}
