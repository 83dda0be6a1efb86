package dev.verbs4j.examples;

/** The little command-line parsing the example programs share. */
final class Options {
    private Options() {}

    /** The value after an option, or exit 1 with a message when it is missing. */
    static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            fail("option " + option + " needs a value", null);
        }
        return args[index];
    }

    static int intValue(String[] args, int index, String option) {
        String v = value(args, index, option);
        try {
            return Integer.decode(v);
        } catch (NumberFormatException e) {
            fail("option " + option + " needs a number, got '" + v + "'", null);
            return 0;
        }
    }

    static void fail(String message, String usage) {
        System.err.println("verbs4j: " + message);
        if (usage != null) {
            System.err.print(usage);
        }
        System.exit(1);
    }
}
