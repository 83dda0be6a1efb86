package dev.verbs4j.guest.probe;

/** The RDMA providers verbs4j knows the limits of, identified by their kernel driver. */
public enum RdmaProvider {
    /** VMware paravirtual RDMA (a PVRDMA adapter in a vSphere guest). */
    PVRDMA("vmw_pvrdma", "vmw_pvrdma", "VMware PVRDMA"),
    /** Soft-RoCE: RoCE v2 in software over any Ethernet interface. */
    RXE("rdma_rxe", "rxe", "Soft-RoCE"),
    /** Soft-iWARP. */
    SIW("siw", "siw", "Soft-iWARP"),
    /** Anything else: its limits come from ibv_query_device alone. */
    OTHER("", "", "RDMA device");

    private final String driver;
    private final String library;
    private final String label;

    RdmaProvider(String driver, String library, String label) {
        this.driver = driver;
        this.library = library;
        this.label = label;
    }

    /**
     * rdma-core's user-space provider: lib{library}-rdmav*.so.
     *
     * @return the provider name, "" when unknown
     */
    public String library() {
        return library;
    }

    /**
     * The kernel driver.
     *
     * @return the driver name, "" when unknown
     */
    public String driver() {
        return driver;
    }

    /**
     * The provider as reports name it.
     *
     * @return a short name
     */
    public String label() {
        return label;
    }

    /**
     * The provider of a kernel driver.
     *
     * @param driver the kernel driver name
     * @return the provider; OTHER when unknown
     */
    public static RdmaProvider ofDriver(String driver) {
        for (RdmaProvider p : values()) {
            if (!p.driver.isEmpty() && p.driver.equals(driver)) {
                return p;
            }
        }
        return OTHER;
    }
}
