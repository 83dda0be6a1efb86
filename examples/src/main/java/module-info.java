/** Runnable programs behind bin/verbs4j, and the command-line conventions they share. */
module dev.verbs4j.examples {
    requires dev.verbs4j.verbs;
    requires dev.verbs4j.guest;
    requires dev.verbs4j.nvmf;
    requires dev.verbs4j.netty;
    requires io.netty.transport;
    requires io.netty.buffer;
    requires io.netty.common;
    requires org.slf4j;
    requires transitive info.picocli;

    exports dev.verbs4j.examples; // the command classes, for bin/verbs4j's top-level help and completion
    exports dev.verbs4j.examples.cli;
    opens dev.verbs4j.examples to info.picocli;
    opens dev.verbs4j.examples.cli to info.picocli;
    opens dev.verbs4j.examples.nvmf to info.picocli;
}
