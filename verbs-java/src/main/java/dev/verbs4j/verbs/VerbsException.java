package dev.verbs4j.verbs;

/**
 * A verb failed. Carries the errno, the name of the failing verb and, where we know one, a hint
 * on what to do about it.
 */
public class VerbsException extends RuntimeException {
    private final String verb;
    private final int errno;
    private final String hint;

    public VerbsException(String message, String verb, int errno, String hint) {
        super(format(message, verb, errno, hint));
        this.verb = verb;
        this.errno = errno;
        this.hint = hint;
    }

    private static String format(String message, String verb, int errno, String hint) {
        StringBuilder s = new StringBuilder(message);
        if (errno != 0) {
            s.append(" (").append(verb).append(": ").append(Errno.name(errno)).append(')');
        }
        if (hint != null && !hint.isEmpty()) {
            s.append(" — ").append(hint);
        }
        return s.toString();
    }

    /** The verb (C function) that failed, e.g. {@code ibv_reg_mr}. */
    public String verb() {
        return verb;
    }

    /** The errno the verb reported, or 0 when the failure did not come with one. */
    public int errno() {
        return errno;
    }

    /** What to try, or null. */
    public String hint() {
        return hint;
    }
}
