package dev.verbs4j.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * GNU getopt_long as rdma-core's tools use it, so their command lines work unchanged: clustered
 * flags ({@code -vV}), values attached or separate ({@code -S64}, {@code -S 64}), long options with
 * {@code =} or a separate value, and operands anywhere (argument permutation); {@code --} ends options.
 */
final class Getopt {
    /** One parsed option: its short letter and its value (null for flags). */
    record Opt(char letter, String value) {}

    /** Options in order, and the operands left over. */
    record Parsed(List<Opt> options, List<String> operands) {}

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    private Getopt() {}

    /**
     * @param shortSpec letters, a letter followed by ':' takes a value (getopt's optstring)
     * @param longNames long option name to its short letter
     */
    static Parsed parse(String[] args, String shortSpec, Map<String, Character> longNames) throws UsageException {
        List<Opt> options = new ArrayList<>();
        List<String> operands = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                operands.addAll(List.of(args).subList(i + 1, args.length));
                break;
            }
            if (arg.startsWith("--")) {
                int eq = arg.indexOf('=');
                String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
                Character letter = longNames.get(name);
                if (letter == null) {
                    throw new UsageException("unrecognized option '--" + name + "'");
                }
                if (takesValue(shortSpec, letter)) {
                    String value;
                    if (eq >= 0) {
                        value = arg.substring(eq + 1);
                    } else if (i + 1 < args.length) {
                        value = args[++i];
                    } else {
                        throw new UsageException("option '--" + name + "' requires an argument");
                    }
                    options.add(new Opt(letter, value));
                } else if (eq >= 0) {
                    throw new UsageException("option '--" + name + "' doesn't allow an argument");
                } else {
                    options.add(new Opt(letter, null));
                }
            } else if (arg.startsWith("-") && arg.length() > 1) {
                for (int k = 1; k < arg.length(); k++) {
                    char c = arg.charAt(k);
                    if (c == ':' || shortSpec.indexOf(c) < 0) {
                        throw new UsageException("invalid option -- '" + c + "'");
                    }
                    if (!takesValue(shortSpec, c)) {
                        options.add(new Opt(c, null));
                        continue;
                    }
                    if (k + 1 < arg.length()) {
                        options.add(new Opt(c, arg.substring(k + 1)));
                    } else if (i + 1 < args.length) {
                        options.add(new Opt(c, args[++i]));
                    } else {
                        throw new UsageException("option requires an argument -- '" + c + "'");
                    }
                    break;
                }
            } else {
                operands.add(arg);
            }
        }
        return new Parsed(options, operands);
    }

    private static boolean takesValue(String shortSpec, char letter) {
        int at = shortSpec.indexOf(letter);
        return at >= 0 && at + 1 < shortSpec.length() && shortSpec.charAt(at + 1) == ':';
    }
}
