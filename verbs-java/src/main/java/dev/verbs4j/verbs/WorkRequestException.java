package dev.verbs4j.verbs;

/**
 * Posting a chain of work requests failed. The requests before {@link #index()} were posted and
 * will complete; this one and those after it were not.
 */
public final class WorkRequestException extends VerbsException {
    private final int index;
    private final int chainLength;

    WorkRequestException(String verb, int errno, int index, int chainLength, long wrId) {
        super("posting failed at work request " + index + " of " + chainLength + " (wr_id " + wrId + ")", verb, errno,
                hint(verb, errno));
        this.index = index;
        this.chainLength = chainLength;
    }

    /** Position of the rejected request in the posted chain (0-based), or -1 if the provider did not say. */
    public int index() {
        return index;
    }

    public int chainLength() {
        return chainLength;
    }

    static String hint(String verb, int errno) {
        boolean send = verb.equals("ibv_post_send");
        return switch (errno) {
            case Errno.ENOMEM -> (send ? "the send queue is full" : "the receive queue is full")
                    + ": more outstanding work requests than the queue holds; poll completions before posting more";
            case Errno.EINVAL -> "a field is invalid for this QP: opcode not allowed for its type, too many SGEs, "
                    + "inline data longer than max_inline_data, or the QP is in the wrong state "
                    + (send ? "(sends need RTS)" : "(receives need INIT or later)");
            case Errno.EFAULT -> "a buffer address or key is invalid";
            default -> Hints.hint(verb, errno);
        };
    }
}
