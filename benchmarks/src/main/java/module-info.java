/** JMH benchmarks and the perftest-style CLI. */
module dev.verbs4j.benchmarks {
    requires dev.verbs4j.verbs;
    requires dev.verbs4j.bindings;
    requires dev.verbs4j.guest;
    requires jmh.core;
    requires java.management;

    exports dev.verbs4j.benchmarks.perf;
}
