package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.verbs.NetworkNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The rig's two-netns topologies as the tests see them: namespaces nsa/nsb, devices rxea/rxeb,
 * addresses 10.82.0.1/.2 on the veth ends n0/n1, the GID index, and the netns mode.
 */
record NetnsPair(String[] namespaces, String[] devices, String[] addresses, int gidIndex, boolean exclusive) {

    static NetnsPair fromRig() {
        return new NetnsPair(words("RIG_NETNS_PAIR"), words("RIG_NETNS_PAIR_DEVICES"), words("RIG_NETNS_PAIR_ADDRS"),
                Integer.parseInt(env("RIG_NETNS_PAIR_GID_INDEX")), env("RIG_NETNS_MODE").equals("exclusive"));
    }

    static String env(String name) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            fail(name + " is not set: these tests need the rig's two-netns topologies (ci/rig run --topology "
                    + "two-netns ...); RIG_TOPOLOGY=" + System.getenv("RIG_TOPOLOGY"));
        }
        return v;
    }

    private static String[] words(String name) {
        return env(name).trim().split("\\s+");
    }

    /** The veth end of side {@code i}: n0 lives in nsa, n1 in nsb. */
    static String veth(int i) {
        return "n" + i;
    }

    /** {rx_packets, tx_packets} of {@code netdev} in the namespace of {@code ns}'s thread. */
    static long[] packets(NetworkNamespace ns, String netdev) throws Exception {
        return ns.call(() -> packetsHere(netdev));
    }

    /** /proc/thread-self/net/dev answers for the calling thread's namespace (/proc/net for the main thread's). */
    private static long[] packetsHere(String netdev) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/net/dev"))) {
            String[] f = line.trim().split("[:\\s]+");
            if (f[0].equals(netdev)) {
                return new long[] {Long.parseLong(f[2]), Long.parseLong(f[10])};
            }
        }
        throw new IllegalStateException("no " + netdev + " in " + NetworkNamespace.currentThreadNamespace());
    }
}
