package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.verbs.RemoteRegion;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A connected channel between two processes, the same over RDMA (an RC queue pair) and TCP.
 * Applications code against this interface only; {@link #transport()} says which one carries it
 * and why.
 *
 * <p>Ownership: whoever received the channel from {@link ChannelServer#accept} or
 * {@link ChannelConnector#connect} owns it and closes it. Closing the channel closes its private
 * completion loop if it started one; a loop given in {@link ChannelConfig#loop} stays open.
 * Regions from {@link #register} outlive the channel: their caller closes them (on RDMA the
 * protection domain goes with the last of them).
 *
 * <p>Thread safety: every method may be called from any thread, including the completion loop
 * thread (where a send that would have to wait fails instead).
 *
 * <p>Operations return futures completed on the channel's {@link CompletionLoop} thread, so
 * dependent actions ({@code thenRun}, {@code whenComplete}) run there too and must not block.
 * Failures complete the future with a {@link ChannelException}.
 *
 * <p>Messages arrive whole or not at all, in the order they were sent. One-sided writes and reads
 * act on a peer's {@link RegisteredRegion}, named by a {@link RemoteRegion} the peer passed over.
 */
public interface Channel extends AutoCloseable {

    /**
     * Which transport carries this channel and why it was chosen.
     *
     * @return the choice both sides agreed on; fixed for the channel's life
     */
    TransportChoice transport();

    /**
     * The largest message either side may send (both sides agreed on it at connect time).
     *
     * @return the size in bytes
     */
    int maxMessageSize();

    /**
     * Sends a copy of {@code message}. Blocks while the send queue is full (back-pressure), up to
     * the configured send timeout; on the completion loop thread it fails at once instead.
     *
     * <p>On TCP in EVENT or ADAPTIVE mode, a native {@code message} the socket takes only part of
     * is not copied: the call waits until the socket has taken the rest from the caller's memory,
     * as a blocking socket's write does (the future is then complete). Past the send timeout it
     * copies what is left and returns, as when the socket takes everything at once.
     *
     * <p>An EVENT (or sleeping ADAPTIVE) loop wakes for the send's completion at once when a
     * thread waits on the future ({@code get}, {@code join}) or polls it ({@code isDone}); else
     * it sleeps until the peer's next message and takes the completion then, within 2 ms at the
     * latest (stages made with {@code thenRun} and the like run then). That spares a
     * request/response exchange one wake-up per message.
     *
     * @param message the bytes to send, at most {@link #maxMessageSize()}; copied before this
     *                returns, so the caller may reuse it at once
     * @return completes when the message is sent, or exceptionally with a {@link ChannelException}
     * @throws ChannelException when the message is larger than {@link #maxMessageSize()}
     *                          ({@link ChannelError#LOCAL_LENGTH}), the channel is closed, or the
     *                          send queue stayed full for the send timeout
     */
    CompletableFuture<Void> send(MemorySegment message);

    /**
     * As {@link #send(MemorySegment)}, with 32 bits of immediate data the receiver sees apart.
     *
     * @param message   the bytes to send, copied before this returns
     * @param immediate the immediate data ({@link ChannelMessage#immediate()} at the peer)
     * @return completes when the message is sent, or exceptionally with a {@link ChannelException}
     * @throws ChannelException as {@link #send(MemorySegment)}
     */
    CompletableFuture<Void> send(MemorySegment message, int immediate);

    /**
     * Like {@link #send(MemorySegment, int)} but never waits: returns null when the send queue is
     * full. {@code hasImmediate} false sends without immediate data.
     *
     * @param message      the bytes to send, copied before this returns
     * @param hasImmediate whether {@code immediate} is sent
     * @param immediate    the immediate data, ignored when {@code hasImmediate} is false
     * @return completes when the message is sent, or null when the send queue is full
     * @throws ChannelException when the message is too large or the channel is closed
     */
    CompletableFuture<Void> trySend(MemorySegment message, boolean hasImmediate, int immediate);

    /**
     * Sends a copy of {@code message} if the send queue has room, without a future: allocates
     * nothing, and never waits. A failure after it returns ends the channel, which the listener's
     * {@link ChannelListener#onClosed} and the next call report. With a listener that reads
     * messages in place ({@link ChannelListener#onMessage(Channel, MemorySegment, long, int,
     * boolean, int)}), a message costs no garbage on either side.
     *
     * @param message      the bytes to send, at most {@link #maxMessageSize()}; copied before this
     *                     returns
     * @param hasImmediate whether {@code immediate} is sent
     * @param immediate    the immediate data, ignored when {@code hasImmediate} is false
     * @return true if the message is on its way, false if the send queue is full (nothing sent)
     * @throws ChannelException when the message is too large ({@link ChannelError#LOCAL_LENGTH})
     *                          or the channel has ended
     */
    boolean offer(MemorySegment message, boolean hasImmediate, int immediate);

    /**
     * The next message. Futures are completed in arrival order; when a {@link ChannelListener}
     * is set, messages go to it instead. Messages that arrive before anyone asks wait here, up
     * to {@link ChannelConfig#receiveBacklog} bytes; then the peer's sends wait until this side
     * receives (back-pressure), and nothing is lost.
     *
     * @return completes with the next message (which the caller owns), or exceptionally with a
     *         {@link ChannelException} when the channel ends first
     */
    CompletableFuture<ChannelMessage> receive();

    /**
     * Waits for the next message and copies it into {@code into}, allocating nothing: for a thread
     * that sends and waits for replies, as a blocking socket's reader does. It takes its turn
     * with {@link #receive()} futures in the order they were asked for; while it waits, the
     * calling thread drives the completion loop as a future's waiter does (see the package
     * comment). On TCP in EVENT and ADAPTIVE mode it reads the socket itself instead, waiting in
     * the read as a blocking socket does, and a message's payload goes straight into native
     * memory of {@code into} (heap memory gets a copy); the loop reads the socket again 10 ms
     * after the last such receive, and at once for a future or a listener.
     *
     * @param into    where the message goes, at least {@link #maxMessageSize()} bytes; after a
     *                receive that returns false its contents are undefined
     * @param timeout how long to wait at most
     * @return true with the message in {@code into}; false when none came in time (or the thread
     *         was interrupted, whose status stays set), and then none was taken: a later message
     *         waits for the next receive
     * @throws ChannelException         when the channel ended and no message is left (its error
     *                                  says how, as a failed {@link #receive()} future's does)
     * @throws IllegalArgumentException when {@code into} is smaller than {@link #maxMessageSize()}
     * @throws IllegalStateException    on the completion loop's thread or in a listener, where
     *                                  waiting would stall the loop
     */
    boolean receive(ReceiveBuffer into, Duration timeout);

    /**
     * Delivers every further message (and the end of the channel) to {@code listener}, where the
     * completion loop runs: its thread, or an application thread that drives it while it waits
     * (see the package comment). Messages that arrived before and wait for a receive go to it
     * first, in order, through the same method as the rest.
     *
     * @param listener the listener; it must not block
     */
    void setListener(ChannelListener listener);

    /**
     * Memory the peer may write and read, registered with this channel.
     *
     * @param size bytes to allocate and register
     * @return the region; the caller closes it when done, before or after the channel
     * @throws ChannelException when the memory cannot be registered (memlock limit, closed channel)
     */
    RegisteredRegion register(long size);

    /**
     * Writes {@code length} bytes of {@code local} (from {@code localOffset}) into the peer's
     * region at {@code remoteAddress}. Completes when the peer's memory holds them. A wrong key
     * or an address outside the peer's region fails with {@link ChannelError#REMOTE_ACCESS}.
     *
     * @param local         a region registered with this channel, holding the bytes
     * @param localOffset   where the bytes start in {@code local}
     * @param remote        the peer's region, as the peer passed it over
     * @param remoteAddress where to write inside {@code remote}
     * @param length        how many bytes
     * @return completes when the peer's memory holds the bytes, or exceptionally with a
     *         {@link ChannelException}
     * @throws ChannelException when {@code local} is not this channel's or the range is outside it
     */
    CompletableFuture<Void> write(RegisteredRegion local, long localOffset, RemoteRegion remote, long remoteAddress,
                                  int length);

    /**
     * Reads {@code length} bytes of the peer's region at {@code remoteAddress} into {@code local}.
     *
     * @param local         a region registered with this channel, to receive the bytes
     * @param localOffset   where the bytes go in {@code local}
     * @param remote        the peer's region, as the peer passed it over
     * @param remoteAddress where to read inside {@code remote}
     * @param length        how many bytes
     * @return completes when {@code local} holds the bytes, or exceptionally with a
     *         {@link ChannelException}
     * @throws ChannelException when {@code local} is not this channel's or the range is outside it
     */
    CompletableFuture<Void> read(RegisteredRegion local, long localOffset, RemoteRegion remote, long remoteAddress,
                                 int length);

    /**
     * This end's address of the TCP connection that set the channel up (on RDMA it stays beside
     * the queue pair as the channel's control connection): the host and port the peer sees.
     *
     * @return the local address and port
     */
    InetSocketAddress localAddress();

    /**
     * The peer's address of the TCP connection that set the channel up.
     *
     * @return the peer's address and port
     */
    InetSocketAddress remoteAddress();

    /**
     * Whether the channel still carries messages.
     *
     * @return false once closed by either side or failed
     */
    boolean isOpen();

    /**
     * Orderly close: waits (bounded) for this side's sends to complete, tells the peer, fails
     * whatever is still pending with {@link ChannelError#CLOSED} and releases the resources.
     */
    @Override
    void close();
}
