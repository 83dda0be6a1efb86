/**
 * The transports behind a {@link dev.verbs4j.guest.Channel}: the bootstrap exchange over TCP that
 * chooses one, the RDMA channel (an RC queue pair) and the TCP channel, and what both share (send
 * credits, the inbox, the operations in flight). Not exported from the module: applications reach
 * them only through the Channel API.
 */
package dev.verbs4j.guest.channel;
