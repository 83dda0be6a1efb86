package dev.verbs4j.guest.doctor;

/** The outcome of one doctor check. Only FAIL is blocking (non-zero exit code). */
public enum CheckStatus {
    /** Nothing to fix. */
    OK,
    /** Works, with a remark or a limit worth knowing. */
    WARN,
    /** Blocks what it checks; the doctor exits with 1. */
    FAIL
}
