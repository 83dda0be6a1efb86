/** JMH benchmarks and the perftest-style CLI. */
module dev.verbs4j.benchmarks {
    requires dev.verbs4j.verbs;
    requires dev.verbs4j.bindings;
    requires dev.verbs4j.guest;
    requires jmh.core;
    requires java.management;
    requires dev.verbs4j.examples;
    requires info.picocli;
    requires dev.verbs4j.netty;
    requires io.netty.transport;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.grpc;
    requires io.grpc.netty;
    requires io.grpc.stub;

    exports dev.verbs4j.benchmarks;
    exports dev.verbs4j.benchmarks.perf;
    exports dev.verbs4j.benchmarks.netty;
    opens dev.verbs4j.benchmarks.perf to info.picocli;
    opens dev.verbs4j.benchmarks.modes to info.picocli;
}
