package dev.verbs4j.guest.bootstrap;

/**
 * The shared-memory set-up failed on either side and both sides know it: the bootstrap socket is
 * still in step, so the channel can go on over RDMA or TCP (unless a side forced shm).
 */
final class ShmChannelFallback extends Exception {
    ShmChannelFallback(String reason) {
        super(reason);
    }
}
