package dev.verbs4j.rig;

import java.util.List;
import java.util.Map;

/**
 * The soft-RoCE rig as ci/rig describes it to the command in the guest: topology, devices,
 * addresses, GID indexes, namespaces, the nvmet target. A variable that is not set fails the test
 * with one message that names it, the topologies that set it and how to run there, so a rig test
 * run on a plain host or in the wrong topology never passes or skips quietly.
 */
public final class RigEnvironment {
    private static final RigEnvironment CURRENT = new RigEnvironment(System.getenv());

    private final Map<String, String> env;

    private RigEnvironment(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** This process's environment. */
    public static RigEnvironment current() {
        return CURRENT;
    }

    /** The rig as {@code env} describes it (for the harness's own tests). */
    public static RigEnvironment of(Map<String, String> env) {
        return new RigEnvironment(env);
    }

    /** Whether this runs in the rig's guest at all (ci/rig sets RIG_GUEST=1). */
    public boolean inRig() {
        return "1".equals(env.get(RigVariable.RIG_GUEST.name()));
    }

    public String topology() {
        return require(RigVariable.RIG_TOPOLOGY);
    }

    /** This environment, if it is the rig's topology {@code name}; fails the test anywhere else. */
    public RigEnvironment requireTopology(String name) {
        String topology = env.get(RigVariable.RIG_TOPOLOGY.name());
        if (!name.equals(topology)) {
            throw new AssertionError("needs the rig's " + name + " topology (ci/rig run --topology " + name
                    + " ...), got RIG_TOPOLOGY=" + topology);
        }
        return this;
    }

    /** The soft-RoCE device of the topology, rxe0. */
    public String device() {
        return require(RigVariable.RIG_DEVICE);
    }

    /** The index of the device's RoCE v2 IPv4 GID. */
    public int gidIndex() {
        return number(RigVariable.RIG_GID_INDEX);
    }

    /** The device's IPv4 address. */
    public String address() {
        return require(RigVariable.RIG_ADDR);
    }

    /** two-hosts: the two devices on the ends of the veth pair. */
    public List<String> pairDevices() {
        return two(RigVariable.RIG_PAIR_DEVICES);
    }

    public List<String> pairAddresses() {
        return two(RigVariable.RIG_PAIR_ADDRS);
    }

    public int pairGidIndex() {
        return number(RigVariable.RIG_PAIR_GID_INDEX);
    }

    /** no-rdma: the namespace without an RDMA device. */
    public String netns() {
        return require(RigVariable.RIG_NETNS);
    }

    public String netnsAddress() {
        return require(RigVariable.RIG_NETNS_ADDR);
    }

    public String hostVethAddress() {
        return require(RigVariable.RIG_HOST_VETH_ADDR);
    }

    /** nvmet: the target's subsystem NQN. */
    public String nvmetNqn() {
        return require(RigVariable.RIG_NVMET_NQN);
    }

    public int nvmetPort() {
        return number(RigVariable.RIG_NVMET_PORT);
    }

    /** nvmet: the loop device behind namespace 1. */
    public String nvmetDevice() {
        return require(RigVariable.RIG_NVMET_DEVICE);
    }

    /** nvmet: the target's second port, on rxe1 at one end of the veth pair. */
    public String nvmetLinkAddress() {
        return require(RigVariable.RIG_NVMET_LINK_ADDR);
    }

    /** nvmet: the initiator's source address for {@link #nvmetLinkAddress}, on rxe2 at the veth's other end. */
    public String nvmetLinkHostAddress() {
        return require(RigVariable.RIG_NVMET_LINK_HOST_ADDR);
    }

    /** nvmet: the veth ends between them, the target's first, then the initiator's. */
    public List<String> nvmetLinkNetdevs() {
        return two(RigVariable.RIG_NVMET_LINK_NETDEVS);
    }

    /** two-netns: the two namespaces, each with its own device. */
    public List<String> netnsPair() {
        return two(RigVariable.RIG_NETNS_PAIR);
    }

    public List<String> netnsPairDevices() {
        return two(RigVariable.RIG_NETNS_PAIR_DEVICES);
    }

    public List<String> netnsPairAddresses() {
        return two(RigVariable.RIG_NETNS_PAIR_ADDRS);
    }

    public int netnsPairGidIndex() {
        return number(RigVariable.RIG_NETNS_PAIR_GID_INDEX);
    }

    /** The rdma netns mode of the two-netns topologies, shared or exclusive. */
    public String netnsMode() {
        return require(RigVariable.RIG_NETNS_MODE);
    }

    /** The variable's value, trimmed; fails the test when it is not set or blank. */
    public String require(RigVariable variable) {
        String value = env.get(variable.name());
        if (value == null || value.isBlank()) {
            throw new AssertionError(missing(variable));
        }
        return value.trim();
    }

    private String missing(RigVariable variable) {
        String where = variable.name() + " is not set: this test runs inside the soft-RoCE rig, in "
                + variable.topologies() + " (ci/rig run --topology NAME mvn -B -o -P rig -pl MODULE surefire:test"
                + " -Dtest=CLASS; ci/rig --help lists the topologies)";
        return inRig() ? where + "; this is the rig's topology " + env.get(RigVariable.RIG_TOPOLOGY.name())
                : where + "; RIG_GUEST is not set, so this is not the rig";
    }

    private int number(RigVariable variable) {
        String value = require(variable);
        if (!value.matches("\\d+")) {
            throw new AssertionError(variable.name() + " is not a number: '" + value + "'");
        }
        return Integer.parseInt(value);
    }

    private List<String> two(RigVariable variable) {
        List<String> two = List.of(require(variable).split("\\s+"));
        if (two.size() != 2) {
            throw new AssertionError(variable.name() + " must name two, got '" + env.get(variable.name()) + "'");
        }
        return two;
    }
}
