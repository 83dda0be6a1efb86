package dev.verbs4j.guest;

import dev.verbs4j.rig.RigEnvironment;
import java.util.List;
import java.util.Map;

/**
 * The rig's two-hosts topology as its environment describes it: two soft-RoCE devices on the two
 * ends of a veth pair, each with its own address, sharing the GID index of their RoCE v2 IPv4 GID.
 * Anywhere else {@link #fromEnvironment} fails the test (the rig harness says why), so a wrong
 * topology never passes quietly.
 */
record RigPairTopology(String serverDevice, String clientDevice, String serverAddress, String clientAddress,
                       int gidIndex) {

    static RigPairTopology fromEnvironment() {
        return from(System.getenv());
    }

    static RigPairTopology from(Map<String, String> env) {
        RigEnvironment rig = RigEnvironment.of(env).requireTopology("two-hosts");
        List<String> devices = rig.pairDevices();
        List<String> addresses = rig.pairAddresses();
        return new RigPairTopology(devices.get(0), devices.get(1), addresses.get(0), addresses.get(1),
                rig.pairGidIndex());
    }
}
