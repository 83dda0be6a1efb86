package dev.verbs4j.benchmarks.jmh;

import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.Verbs;

/** The device the benchmarks open: -Dverbs4j.device=NAME or $RIG_DEVICE, else the first one. */
final class BenchmarkDevice {
    private BenchmarkDevice() {}

    /** The name asked for, or null / empty for the first device. */
    static String name() {
        return System.getProperty("verbs4j.device", System.getenv("RIG_DEVICE"));
    }

    static Context open() {
        String name = name();
        if (name != null && !name.isEmpty()) {
            return Verbs.open(name);
        }
        return Verbs.openFirst().orElseThrow(() -> new IllegalStateException(
                "no RDMA device; run the benchmarks inside the soft-RoCE rig (ci/rig run ...)"));
    }
}
