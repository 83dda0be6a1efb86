package dev.verbs4j.guest;

/** What carries a channel. */
public enum TransportKind {
    RDMA, TCP;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
