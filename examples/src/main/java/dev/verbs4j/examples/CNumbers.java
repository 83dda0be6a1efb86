package dev.verbs4j.examples;

/**
 * Number parsing with the C library's rules, so odd inputs mean what they mean to the C tools:
 * {@code strtol(s, NULL, 0)} (0x hex, leading-0 octal, stops at the first non-digit, 0 when none)
 * and {@code atoi} (decimal only).
 */
final class CNumbers {
    private CNumbers() {}

    /** strtol(s, NULL, 0) truncated to a C int, as the tools store it. */
    static int strtol(String s) {
        return (int) parse(s, 0);
    }

    /** strtoul(s, NULL, 0) into an unsigned int variable; returned as a long so it stays non-negative. */
    static long strtoul(String s) {
        return parse(s, 0) & 0xFFFF_FFFFL;
    }

    static int atoi(String s) {
        return (int) parse(s, 10);
    }

    private static long parse(String s, int base) {
        int i = 0;
        int n = s.length();
        while (i < n && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        if (base == 0) {
            if (i + 1 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
                    && i + 2 < n && Character.digit(s.charAt(i + 2), 16) >= 0) {
                base = 16;
                i += 2;
            } else if (i < n && s.charAt(i) == '0') {
                base = 8;
            } else {
                base = 10;
            }
        }
        long value = 0;
        while (i < n) {
            int d = Character.digit(s.charAt(i), base);
            if (d < 0) {
                break;
            }
            value = value * base + d;
            if (value > 0xFFFF_FFFFL) {
                value = 0xFFFF_FFFFL; // saturate like strtol's overflow clamp, enough for option values
            }
            i++;
        }
        return negative ? -value : value;
    }
}
