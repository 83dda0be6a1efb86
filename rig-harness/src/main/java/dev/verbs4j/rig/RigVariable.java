package dev.verbs4j.rig;

/**
 * Every variable ci/rig exports to the command in the guest ({@code ci/rig --help}, "Environment of
 * the command in the guest"), with the topologies that set it: a test that misses one is told
 * where it would find it.
 */
public enum RigVariable {
    RIG_GUEST("every topology"),
    RIG_TOPOLOGY("every topology"),
    RIG_DEVICE("every topology but two-netns-exclusive"),
    RIG_GID_INDEX("every topology but two-netns-exclusive"),
    RIG_ADDR("every topology but two-netns-exclusive"),
    RIG_PAIR_DEVICES("two-hosts, nvmet"),
    RIG_PAIR_ADDRS("two-hosts, nvmet"),
    RIG_PAIR_GID_INDEX("two-hosts, nvmet"),
    RIG_NETNS("no-rdma"),
    RIG_NETNS_ADDR("no-rdma"),
    RIG_HOST_VETH_ADDR("no-rdma"),
    RIG_NVMET_NQN("nvmet"),
    RIG_NVMET_PORT("nvmet"),
    RIG_NVMET_DEVICE("nvmet"),
    RIG_NVMET_LINK_ADDR("nvmet"),
    RIG_NVMET_LINK_HOST_ADDR("nvmet"),
    RIG_NVMET_LINK_NETDEVS("nvmet"),
    RIG_NETNS_PAIR("two-netns, two-netns-exclusive"),
    RIG_NETNS_PAIR_DEVICES("two-netns, two-netns-exclusive"),
    RIG_NETNS_MODE("two-netns, two-netns-exclusive"),
    RIG_NETNS_PAIR_ADDRS("two-netns, two-netns-exclusive"),
    RIG_NETNS_PAIR_GID_INDEX("two-netns, two-netns-exclusive"),
    RIG_L2_DEVICE("pvrdma"),
    RIG_L2_GID_INDEX("pvrdma"),
    RIG_L2_ADDR("pvrdma"),
    RIG_L2_ACCEL("pvrdma"),
    RIG_L2_READY("pvrdma"),
    RIG_PEER_ADDR("pvrdma (in its L2 guest)"),
    RIG_L2("pvrdma (in its L2 guest)");

    private final String topologies;

    RigVariable(String topologies) {
        this.topologies = topologies;
    }

    /** The topologies that set it, as ci/rig --help names them. */
    public String topologies() {
        return topologies;
    }
}
