/** JMH benchmarks and the perftest-style CLI. */
module dev.verbs4j.benchmarks {
    requires dev.verbs4j.verbs;
    requires dev.verbs4j.bindings;
    requires dev.verbs4j.guest;
    requires jmh.core;
    requires java.management;
    requires dev.verbs4j.examples;
    requires info.picocli;

    exports dev.verbs4j.benchmarks;
    exports dev.verbs4j.benchmarks.perf;
    opens dev.verbs4j.benchmarks.perf to info.picocli;
    opens dev.verbs4j.benchmarks.modes to info.picocli;
}
