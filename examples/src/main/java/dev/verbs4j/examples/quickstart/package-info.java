/**
 * Quick-starts: short, whole programs that show one way of using verbs4j each, from opening the
 * device to closing everything. The README's code blocks are excerpts of these files; the build
 * compiles them and the rig runs them, so they stay correct.
 *
 * <ul>
 *   <li>{@link dev.verbs4j.examples.quickstart.RcSendReceive}: reliable connection, send and receive</li>
 *   <li>{@link dev.verbs4j.examples.quickstart.RdmaWriteRead}: RDMA write and read with the peer's rkey</li>
 *   <li>{@link dev.verbs4j.examples.quickstart.Atomics}: fetch-and-add and compare-and-swap</li>
 *   <li>{@link dev.verbs4j.examples.quickstart.UdDatagram}: unreliable datagrams</li>
 *   <li>{@link dev.verbs4j.examples.quickstart.CmClientServer}: rdma_cm client and server</li>
 *   <li>{@link dev.verbs4j.examples.quickstart.ChannelTransport}: the Channel API over shared memory, RDMA or TCP</li>
 * </ul>
 */
package dev.verbs4j.examples.quickstart;
