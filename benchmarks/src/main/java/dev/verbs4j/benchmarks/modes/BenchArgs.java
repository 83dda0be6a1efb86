package dev.verbs4j.benchmarks.modes;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The command lines of these benchmarks: "--name value" options, bare flags, at most one operand. */
final class BenchArgs {
    private final Map<String, String> values = new HashMap<>();
    private final Set<String> flags = new HashSet<>();
    private String operand;

    /** {@code withValue} and {@code bare} list every accepted spelling ("-s", "--size"). */
    static BenchArgs parse(String[] args, Set<String> withValue, Set<String> bare) {
        BenchArgs a = new BenchArgs();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (bare.contains(arg)) {
                a.flags.add(arg);
            } else if (withValue.contains(arg)) {
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
                a.values.put(arg, args[++i]);
            } else if (arg.startsWith("-")) {
                throw new IllegalArgumentException("unknown option " + arg);
            } else if (a.operand != null) {
                throw new IllegalArgumentException("unexpected argument " + arg);
            } else {
                a.operand = arg;
            }
        }
        return a;
    }

    boolean has(String... spellings) {
        return List.of(spellings).stream().anyMatch(flags::contains);
    }

    String text(String fallback, String... spellings) {
        for (String s : spellings) {
            if (values.containsKey(s)) {
                return values.get(s);
            }
        }
        return fallback;
    }

    int number(int fallback, String... spellings) {
        String v = text(null, spellings);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(spellings[spellings.length - 1] + " must be a number, got '" + v + "'");
        }
    }

    /** The host operand (the client's server address), or null. */
    String operand() {
        return operand;
    }
}
