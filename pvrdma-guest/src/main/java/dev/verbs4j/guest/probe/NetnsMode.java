package dev.verbs4j.guest.probe;

/** The RDMA subsystem's network namespace mode ({@code rdma system set netns ...}). */
public enum NetnsMode {
    /** Every RDMA device is usable from every network namespace (the kernel default). */
    SHARED,
    /** Each device belongs to exactly one network namespace and is invisible elsewhere. */
    EXCLUSIVE,
    /** ib_core is not loaded, or neither sysfs nor the rdma tool could say. */
    UNKNOWN;

    /**
     * The mode in lower case, as reports write it.
     *
     * @return "shared", "exclusive" or "unknown"
     */
    public String label() {
        return name().toLowerCase();
    }
}
