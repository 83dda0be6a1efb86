package dev.verbs4j.guest;

import java.util.Locale;

/** Configuration's say in the transport: choose by capabilities, or force one. */
public enum TransportPreference {
    /**
     * Shared memory between two processes on one kernel, in one network namespace, under one
     * user (as both state in the bootstrap exchange); else RDMA when both sides can, else TCP. A
     * failed shared-memory set-up falls back to RDMA or TCP, a failed RDMA connect to TCP; the
     * channel's {@link TransportChoice#reason()} says why.
     */
    AUTO,
    /** RDMA or fail: no fallback. */
    RDMA,
    /** TCP even where RDMA would work. */
    TCP,
    /**
     * Shared memory or fail: both ends must be processes on one kernel, in one network
     * namespace, under one user (the bootstrap exchange proves it).
     */
    SHM;

    /**
     * Parses "auto", "rdma", "tcp" or "shm", as on the command line.
     *
     * @param text the word, any case
     * @return the preference
     * @throws IllegalArgumentException for any other word
     */
    public static TransportPreference parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("transport must be auto, rdma, tcp or shm, got '" + text + "'");
        }
    }
}
