package dev.verbs4j.guest.bootstrap;

/**
 * Why one side cannot run a channel over RDMA, phrased for the side itself and for its peer
 * (the reasons a TCP channel reports).
 */
enum CapabilitiesGap {
    NONE("", ""),
    NO_RDMA_LIBRARY("rdma-core (libibverbs) is not installed", "peer has no rdma-core (libibverbs)"),
    NO_DEVICE("no RDMA device", "peer has no RDMA device"),
    NO_DEVICE_IN_NETNS("no RDMA device visible in this network namespace",
            "peer has no RDMA device visible in its network namespace"),
    NO_ACTIVE_PORT("no active RDMA port", "peer has no active RDMA port"),
    NO_ROCE_V2_GID("no RoCE v2 GID", "peer has no RoCE v2 GID"),
    MEMLOCK_TOO_LOW("memlock limit too low to register the channel's buffers",
            "peer's memlock limit is too low to register the channel's buffers"),
    DEVICE_ERROR("RDMA device unusable", "peer's RDMA device is unusable"),
    NO_DEVICE_FOR_NETNS("no RDMA device serves an interface of this network namespace",
            "peer has no RDMA device serving an interface of its network namespace");

    private final String here;
    private final String atPeer;

    CapabilitiesGap(String here, String atPeer) {
        this.here = here;
        this.atPeer = atPeer;
    }

    /** As this side says it: "no RDMA device". */
    public String here() {
        return here;
    }

    /** As the peer reports it: "peer has no RDMA device". */
    public String atPeer() {
        return atPeer;
    }
}
