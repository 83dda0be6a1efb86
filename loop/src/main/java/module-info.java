/**
 * The completion loop. Applications see {@link dev.verbs4j.loop.CompletionLoop} and
 * {@link dev.verbs4j.loop.CompletionMode}; the transports that plug their fds and completion
 * queues into a loop see {@code dev.verbs4j.loop.spi}, exported to them alone.
 */
module dev.verbs4j.loop {
    requires transitive dev.verbs4j.verbs;
    requires dev.verbs4j.unix;
    requires org.slf4j;
    exports dev.verbs4j.loop;
    exports dev.verbs4j.loop.spi to dev.verbs4j.guest, dev.verbs4j.nvmf, dev.verbs4j.netty;
}
