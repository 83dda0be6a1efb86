/** Runnable programs behind bin/verbs4j. */
module dev.verbs4j.examples {
    requires dev.verbs4j.verbs;
    requires dev.verbs4j.guest;
    requires dev.verbs4j.nvmf;
    requires info.picocli;
    requires org.slf4j;
}
