package dev.verbs4j.guest;

import dev.verbs4j.guest.loop.CompletionLoop;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * A connected channel between two processes, the same over RDMA (an RC queue pair) and TCP.
 * Applications code against this interface only; {@link #transport()} says which one carries it
 * and why.
 *
 * <p>Operations return futures completed on the channel's {@link CompletionLoop} thread, so
 * dependent actions ({@code thenRun}, {@code whenComplete}) run there too and must not block.
 * Failures complete the future with a {@link ChannelException}.
 *
 * <p>Messages arrive whole or not at all, in the order they were sent. One-sided writes and reads
 * act on a peer's {@link RegisteredRegion}, named by a {@link RemoteRegion} the peer passed over.
 */
public interface Channel extends AutoCloseable {

    /** Which transport carries this channel and why it was chosen. */
    TransportChoice transport();

    /** The largest message either side may send (both sides agreed on it at connect time). */
    int maxMessageSize();

    /**
     * Sends a copy of {@code message}. Blocks while the send queue is full (back-pressure), up to
     * the configured send timeout; on the completion loop thread it fails at once instead.
     */
    CompletableFuture<Void> send(MemorySegment message);

    /** As {@link #send(MemorySegment)}, with 32 bits of immediate data the receiver sees apart. */
    CompletableFuture<Void> send(MemorySegment message, int immediate);

    /**
     * Like {@link #send(MemorySegment, int)} but never waits: returns null when the send queue is
     * full. {@code hasImmediate} false sends without immediate data.
     */
    CompletableFuture<Void> trySend(MemorySegment message, boolean hasImmediate, int immediate);

    /**
     * The next message. Futures are completed in arrival order; when a {@link ChannelListener}
     * is set, messages go to it instead.
     */
    CompletableFuture<ChannelMessage> receive();

    /** Delivers every further message (and the end of the channel) to {@code listener}. */
    void setListener(ChannelListener listener);

    /** Memory the peer may write and read, registered with this channel; close it when done. */
    RegisteredRegion register(long size);

    /**
     * Writes {@code length} bytes of {@code local} (from {@code localOffset}) into the peer's
     * region at {@code remoteAddress}. Completes when the peer's memory holds them. A wrong key
     * or an address outside the peer's region fails with {@link ChannelError#REMOTE_ACCESS}.
     */
    CompletableFuture<Void> write(RegisteredRegion local, long localOffset, RemoteRegion remote, long remoteAddress,
                                  int length);

    /** Reads {@code length} bytes of the peer's region at {@code remoteAddress} into {@code local}. */
    CompletableFuture<Void> read(RegisteredRegion local, long localOffset, RemoteRegion remote, long remoteAddress,
                                 int length);

    /** False once closed by either side or failed. */
    boolean isOpen();

    /**
     * Orderly close: waits (bounded) for this side's sends to complete, tells the peer, fails
     * whatever is still pending with {@link ChannelError#CLOSED} and releases the resources.
     */
    @Override
    void close();
}
