/**
 * The Channel API a Java application in a (PVRDMA) guest codes against: channels that pick RDMA
 * when both ends can and fall back to TCP, with the same calls either way. The completion loop
 * that runs them is in {@code dev.verbs4j.guest.loop}, the doctor and device probing in
 * {@code dev.verbs4j.guest.doctor}; the transports behind the channels are not exported.
 *
 * <h2>Lifetimes</h2>
 * Each object is closed by whoever created it, children before parents:
 * <pre>
 *  CompletionLoop.start(mode)  (optional: shared by several channels; else each channel starts
 *   |                           its own and closes it with itself)
 *   |  ChannelServer.listen(addr, port, config)         ChannelConnector.connect(host, port, config)
 *   |   |                                                  |
 *   |   +-- accept(timeout) --&gt; Channel  &lt;== bootstrap ==&gt; Channel
 *   |   |                          |  (RDMA or TCP, agreed by both sides over the TCP connection)
 *   |   |                          +-- register(size) --&gt; RegisteredRegion  (outlives the channel;
 *   |   |                          |                        its caller closes it)
 *   |   |                          +-- send / receive / write / read  (futures completed on the loop)
 *   |   |                          +-- offer / receive(ReceiveBuffer, timeout)  (no future, no garbage)
 *   |   |                          +-- close()        (this side; the peer sees PEER_CLOSED)
 *   |   +-- close()  (accepted channels stay open)
 *   +-- close()  (after the channels that use it)
 * </pre>
 *
 * <h2>Threads</h2>
 * Channel methods may be called from any thread. Futures and {@link dev.verbs4j.guest.ChannelListener}
 * callbacks run where the completion loop runs, which must never block: on its own thread, or
 * on an application thread that waits ({@code get}/{@code join} on a channel's future, a send
 * waiting for a slot, a receive into a {@link dev.verbs4j.guest.ReceiveBuffer}) and meanwhile
 * drives the loop itself, polling or sleeping in epoll_wait as
 * the mode says, as a C program's one thread would. Callbacks never run two at a time, and a
 * send from one that finds the send queue full fails instead of waiting.
 *
 * <h2>Errors</h2>
 * Every channel failure is a {@link dev.verbs4j.guest.ChannelException} whose
 * {@link dev.verbs4j.guest.ChannelError} is the same on both transports; setting a channel up
 * fails with {@link dev.verbs4j.guest.ChannelError#CONNECT_FAILED}, and a misconfigured
 * {@link dev.verbs4j.guest.ChannelConfig} with an {@link IllegalArgumentException}.
 */
package dev.verbs4j.guest;
