package dev.verbs4j.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.RecvByteBufAllocator;
import java.lang.foreign.MemorySegment;

/**
 * The read side of a channel's byte stream: data messages become Netty's reads. While a read is
 * asked for (auto-read, or {@code read()}), a message is copied straight into buffers from the
 * channel's allocator, sized by its {@link RecvByteBufAllocator}; the reads of one pass of the
 * loop share a read loop (one {@code channelReadComplete} at its end), as one socket read takes
 * what arrived. Otherwise, and for what is left when the read loop stops, bytes wait in the
 * {@link ReceiveRing}, read at the next {@code read()}. The end of the stream (the peer's
 * {@code shutdownOutput}, or its close) is seen after every byte before it has been read.
 * Runs on the event loop's thread.
 */
final class StreamInbound {
    private final Verbs4jSocketChannel channel;
    private final ChannelStream stream;
    private final int window;
    private final Copies copies = new Copies();
    private ReceiveRing ring;
    private RecvByteBufAllocator.Handle handle;
    /** The read loop's buffer being filled, across the messages of one pass. */
    private ByteBuf filling;
    private boolean inReadLoop;
    /** A read was asked for ({@code read()}) and no byte delivered since: as NIO's read pending. */
    private boolean readRequested;
    /** Netty asked for a first read: bytes before it (the channel not active yet) wait. */
    private boolean readingBegun;
    /** The peer's end of stream came: seen once the bytes before it are read. */
    private boolean endPending;

    StreamInbound(Verbs4jSocketChannel channel, ChannelStream stream, int window) {
        this.channel = channel;
        this.stream = stream;
        this.window = window;
    }

    /** Netty asks for a read (doBeginRead). */
    void requestRead() {
        readRequested = true;
        readingBegun = true;
        if (hasBacklog() || endPending) {
            stream.atPassEnd();
        }
    }

    /** Auto-read was turned off: no more reads until asked. */
    void cancelRead() {
        readRequested = false;
    }

    /** A data message: {@code [offset, offset + length)} of {@code source}, valid during the call. */
    void data(MemorySegment source, long offset, int length) {
        if (channel.isInputShutdown() || !channel.isOpen()) {
            stream.consumed(length); // thrown away, as a shut input does: the window stays open
            return;
        }
        if (!wantsBytes() || hasBacklog()) {
            backlog().append(source, offset, length);
            return;
        }
        long at = offset;
        int left = length;
        while (left > 0) {
            ByteBuf target = target();
            int n = Math.min(target.writableBytes(), left);
            copies.append(source, at, n, target);
            at += n;
            left -= n;
            if (!target.isWritable() && !deliverFilled()) {
                if (left > 0) {
                    backlog().append(source, at, left);
                }
                return;
            }
        }
    }

    /** The peer will send no more: its shutdownOutput, or its close. */
    void endOfStream() {
        endPending = true;
        stream.atPassEnd();
    }

    /** The loop's pass is over: the read loop ends, the backlog is read if asked, the end seen. */
    void passEnded() {
        if (inReadLoop) {
            endReadLoop();
        }
        if (wantsBytes() && hasBacklog() && channel.isOpen()) {
            readBacklog();
        }
        if (endPending && !hasBacklog() && channel.isOpen()) {
            endPending = false;
            channel.inputEnded();
        }
    }

    /** Gives back what was read and not yet delivered: the channel closes. */
    void release() {
        if (filling != null) {
            filling.release();
            filling = null;
        }
    }

    /** Whether bytes go to the pipeline now: auto-read, or a read asked for. */
    private boolean wantsBytes() {
        return readRequested || readingBegun && channel.config().isAutoRead();
    }

    private boolean hasBacklog() {
        return ring != null && !ring.isEmpty();
    }

    private ReceiveRing backlog() {
        if (ring == null) {
            ring = new ReceiveRing(window);
        }
        return ring;
    }

    /** The buffer to fill, opening a read loop and allocating as needed. */
    private ByteBuf target() {
        if (!inReadLoop) {
            handle = channel.unsafe().recvBufAllocHandle();
            handle.reset(channel.config());
            inReadLoop = true;
            stream.atPassEnd();
        }
        if (filling == null) {
            filling = handle.allocate(channel.alloc());
            handle.attemptedBytesRead(filling.writableBytes());
        }
        return filling;
    }

    /** Delivers the full buffer; false when the read loop stopped there (the rest waits). */
    private boolean deliverFilled() {
        deliver();
        if (handle.continueReading() && channel.isOpen()) {
            return true;
        }
        endReadLoop();
        return false;
    }

    private void deliver() {
        ByteBuf buffer = filling;
        filling = null;
        int n = buffer.readableBytes();
        handle.lastBytesRead(n);
        handle.incMessagesRead(1);
        readRequested = false; // served: a read() from the handler asks again
        stream.consumed(n);
        channel.pipeline().fireChannelRead(buffer);
    }

    private void endReadLoop() {
        if (filling != null) {
            if (filling.isReadable()) {
                deliver();
            } else {
                filling.release();
                filling = null;
            }
        }
        inReadLoop = false;
        handle.readComplete();
        ChannelPipeline pipeline = channel.pipeline();
        pipeline.fireChannelReadComplete();
    }

    /** One read loop over the backlog; another pass reads more if it is asked and left. */
    private void readBacklog() {
        while (true) {
            ByteBuf target = target();
            ring.moveTo(target, copies);
            if (ring.isEmpty()) {
                endReadLoop();
                break;
            }
            if (!deliverFilled()) {
                break;
            }
        }
        if (wantsBytes() && hasBacklog()) {
            stream.atPassEnd();
        }
    }
}
