/**
 * The TCP channel: {@link dev.verbs4j.guest.tcp.TcpChannel} and its parts, each with one job (see
 * its class comment for the list). Not exported from the module.
 *
 * <h2>Locks, and their order</h2>
 *
 * <p>A TCP channel has three locks of its own. None is held while waiting for the socket.
 *
 * <ol>
 * <li><b>reading</b> ({@code TcpChannel.reading}, a ReentrantLock): held by whoever reads the
 *     socket, the loop in its passes and timers ({@code LoopReads}) or a thread that receives
 *     ({@code DirectReader}). Guards {@code TcpInbound}, the waiter in {@code ArrivingFrames} and
 *     the direct reader's receive time-out. Only ever taken with tryLock: whoever finds it held
 *     leaves the reading to its holder.
 * <li><b>write lock</b> ({@code FrameWriter}): orders frames on the socket; guards the send queue
 *     ({@code TcpOutbound}, {@code FrameMarks}), the reusable header and the send streak. A
 *     holder of the reading lock takes it to answer the peer ({@code OneSidedAccess}) or to send
 *     (a listener that answers), and ending the channel takes it (to wait out a sender).
 * <li><b>interest lock</b> ({@code SocketInterest}): guards the socket's epoll entry, who reads
 *     its input and the linger timer. Taken briefly, alone or inside either of the others.
 * </ol>
 *
 * <p>So the order is reading, then write lock, then interest lock: nothing takes the write lock
 * while it holds the interest lock, and nothing waits for the reading lock at all. Inside all
 * three, the channel layer's own monitors (the inbox, the operations in flight) are taken last
 * and call back into none of these. Ending the channel ({@code ChannelBase.end}) and reporting a
 * write failure happen after the write lock is let go: ending takes it, and waits for the loop.
 */
package dev.verbs4j.guest.tcp;
