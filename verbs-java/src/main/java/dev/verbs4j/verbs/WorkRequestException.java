package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;

/**
 * Posting a chain of work requests failed ({@code ibv_post_send}, {@code ibv_post_recv} or
 * {@code ibv_post_srq_recv}). The requests before {@link #index()} were posted and will complete;
 * this one and those after it were not. Immutable.
 */
public final class WorkRequestException extends VerbsException {
    /** Position of the rejected request, or -1. */
    private final int index;
    /** How many requests were posted at once. */
    private final int chainLength;

    WorkRequestException(String verb, int errno, int index, int chainLength, long wrId) {
        super("posting failed at work request " + index + " of " + chainLength + " (wr_id " + wrId + ")", verb, errno,
                hint(verb, errno));
        this.index = index;
        this.chainLength = chainLength;
    }

    /**
     * Position of the rejected request in the posted chain (0-based), or -1 if the provider did not say.
     *
     * @return the index, 0 to {@link #chainLength()} minus 1, or -1
     */
    public int index() {
        return index;
    }

    /**
     * How many requests the failed post covered.
     *
     * @return the count passed to post, at least 1
     */
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
