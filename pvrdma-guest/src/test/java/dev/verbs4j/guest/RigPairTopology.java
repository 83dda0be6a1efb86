package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Map;

/**
 * The rig's two-hosts topology as its environment describes it: two soft-RoCE devices on the two
 * ends of a veth pair, each with its own address, sharing the GID index of their RoCE v2 IPv4 GID.
 * Anywhere else {@link #fromEnvironment} fails the test, so a wrong topology never passes quietly.
 */
record RigPairTopology(String serverDevice, String clientDevice, String serverAddress, String clientAddress,
                       int gidIndex) {

    static RigPairTopology fromEnvironment() {
        return from(System.getenv());
    }

    static RigPairTopology from(Map<String, String> env) {
        if (!"two-hosts".equals(env.get("RIG_TOPOLOGY"))) {
            fail("needs the rig's two-hosts topology (ci/rig run --topology two-hosts ...), got RIG_TOPOLOGY="
                    + env.get("RIG_TOPOLOGY"));
        }
        String[] devices = pair(env, "RIG_PAIR_DEVICES");
        String[] addresses = pair(env, "RIG_PAIR_ADDRS");
        String gid = env.getOrDefault("RIG_PAIR_GID_INDEX", "").trim();
        if (!gid.matches("\\d+")) {
            fail("RIG_PAIR_GID_INDEX is not a GID index: '" + gid + "'");
        }
        return new RigPairTopology(devices[0], devices[1], addresses[0], addresses[1], Integer.parseInt(gid));
    }

    private static String[] pair(Map<String, String> env, String name) {
        String[] two = env.getOrDefault(name, "").trim().split("\\s+");
        if (two.length != 2 || two[0].isEmpty()) {
            fail(name + " must name two, got '" + env.get(name) + "'");
        }
        return two;
    }
}
