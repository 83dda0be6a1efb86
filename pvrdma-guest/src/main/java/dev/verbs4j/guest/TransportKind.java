package dev.verbs4j.guest;

/** What carries a channel. */
public enum TransportKind {
    /** An RC queue pair. */
    RDMA,
    /** A TCP connection. */
    TCP,
    /** Shared memory between two processes on one kernel. */
    SHM;

    /**
     * The name as the command line and logs write it.
     *
     * @return "rdma", "tcp" or "shm"
     */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
