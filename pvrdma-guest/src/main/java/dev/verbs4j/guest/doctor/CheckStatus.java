package dev.verbs4j.guest.doctor;

/** The outcome of one doctor check. Only FAIL is blocking (non-zero exit code). */
public enum CheckStatus {
    OK, WARN, FAIL
}
