package dev.verbs4j.benchmarks.modes;

import java.util.Arrays;

/**
 * The {@code main} of these benchmark commands: --help prints the usage, a bad option exits 2
 * with the usage, any other failure exits 1, and the JVM exits when the body is done (a channel's
 * loop or slf4j must not keep it alive).
 */
final class BenchMain {
    interface Body {
        void run(String[] args) throws Exception;
    }

    private BenchMain() {}

    static void run(String command, String usage, String[] args, Body body) {
        if (Arrays.asList(args).contains("-h") || Arrays.asList(args).contains("--help")) {
            System.out.print(usage);
            return;
        }
        try {
            body.run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("verbs4j " + command + ": " + e.getMessage());
            System.err.print(usage);
            System.exit(2);
        } catch (Exception e) {
            System.err.println("verbs4j " + command + ": " + e);
            System.exit(1);
        }
        System.exit(0);
    }
}
