/**
 * A Netty 4.2 transport on verbs4j: an {@link io.netty.channel.IoHandler} that runs a verbs4j
 * completion loop on Netty's event-loop thread, and socket and server channels over verbs4j's
 * channels (shared memory on one machine, RDMA when both ends can, TCP otherwise), for Netty and
 * gRPC applications unchanged but for their event loop group and channel classes.
 */
module dev.verbs4j.netty {
    requires transitive dev.verbs4j.guest;
    requires transitive io.netty.transport;
    requires io.netty.buffer;
    requires io.netty.common;
    requires org.slf4j;
    exports dev.verbs4j.netty;
}
