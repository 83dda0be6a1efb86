package dev.verbs4j.verbs;

import java.time.Duration;

/**
 * A connection-manager operation did not end as expected: another event came instead, or none
 * came in time. For errno statuses (ADDR_ERROR, UNREACHABLE...) {@link #errno()} carries it.
 * Immutable; the unexpected event is not serialized.
 */
public final class CmException extends VerbsException {
    /** The event waited for. */
    private final CmEventType expected;
    private final transient CmEvent actual;

    private CmException(String message, String verb, int errno, String hint, CmEventType expected, CmEvent actual) {
        super(message, verb, errno, hint);
        this.expected = expected;
        this.actual = actual;
    }

    /** "expected ESTABLISHED, got REJECTED (status 8: invalid service ID)". */
    static CmException unexpected(String verb, CmEventType expected, CmEvent actual) {
        return new CmException("expected " + expected + ", got " + actual.describe(), verb,
                CmStatus.errno(actual.type(), actual.status()), CmStatus.hint(actual.type(), actual.status()),
                expected, actual);
    }

    static CmException timedOut(String verb, CmEventType expected, Duration timeout) {
        return new CmException("no " + expected + " within " + timeout.toMillis() + " ms", verb, 0,
                "the peer or the network did not answer in time; a timeout under emulation may need to be longer",
                expected, null);
    }

    /**
     * The event that was waited for.
     *
     * @return the expected event type
     */
    public CmEventType expected() {
        return expected;
    }

    /**
     * The event that came instead, or null when none came in time.
     *
     * @return the unexpected event (already acknowledged), or null on timeout
     */
    public CmEvent actual() {
        return actual;
    }

    /**
     * Whether no event came in time.
     *
     * @return true when {@link #actual()} is null
     */
    public boolean timedOut() {
        return actual == null;
    }
}
