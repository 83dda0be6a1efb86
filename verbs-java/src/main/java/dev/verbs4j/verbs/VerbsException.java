package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;

/**
 * A verb failed. Carries the errno, the name of the failing verb and, where one is known, a hint
 * on what to do about it. The message joins all three, e.g.
 * {@code cannot register memory (ibv_reg_mr: ENOMEM) — the locked-memory limit ...}.
 *
 * <p>Unchecked: every verbs call may throw it. When it is thrown, the objects involved are left
 * as they were before the call (a failed close leaves the object open and usable). Immutable.
 */
public class VerbsException extends RuntimeException {
    /** The C function that failed. */
    private final String verb;
    /** Its errno, or 0. */
    private final int errno;
    /** What to try, or null. */
    private final String hint;

    /**
     * Creates the exception; the message is built from all four arguments.
     *
     * @param message what could not be done, in the caller's words
     * @param verb    the C function that failed, e.g. {@code ibv_reg_mr}
     * @param errno   the errno it reported, or 0 when there was none (then the verb is not named)
     * @param hint    what to try, or null or empty for none
     */
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

    /**
     * The verb (C function) that failed.
     *
     * @return the function name, e.g. {@code ibv_reg_mr}
     */
    public String verb() {
        return verb;
    }

    /**
     * The errno the verb reported.
     *
     * @return the errno value (see {@code errno.h}), or 0 when the failure did not come with one
     */
    public int errno() {
        return errno;
    }

    /**
     * What to try.
     *
     * @return a hint for the user, or null when none is known
     */
    public String hint() {
        return hint;
    }
}
