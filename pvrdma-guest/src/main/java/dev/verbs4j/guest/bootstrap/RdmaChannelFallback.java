package dev.verbs4j.guest.bootstrap;

/**
 * The RDMA connect failed on either side and both sides know it: the bootstrap socket is still
 * in step, so the channel can go on over TCP.
 */
final class RdmaChannelFallback extends Exception {
    RdmaChannelFallback(String reason) {
        super(reason);
    }

    RdmaChannelFallback(String reason, Throwable cause) {
        super(reason, cause);
    }
}
