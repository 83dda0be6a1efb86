package dev.verbs4j.netty;

import dev.verbs4j.guest.Channel;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.FileRegion;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * The write side of a channel's byte stream: Netty's flushed buffers go out as messages of at
 * most the channel's message size and at most the peer's window (bytes it has room for). Small
 * buffers are gathered into one message through a staging buffer, a large one goes from its own
 * memory; file regions are read into the staging buffer. The channel layer copies each message
 * into registered memory before {@code offer} returns. Writing stops when the window is used up
 * (the peer's credit resumes it) or the send queue is full ({@code onSendSpace} resumes it), as
 * a socket's writer stops at a full socket buffer. Runs on the event loop's thread.
 */
final class StreamOutbound {
    /** A buffer at least this large is sent from its own memory: one copy, not two. */
    private static final int OWN_MEMORY_MIN = 16 * 1024;
    private static final int MAX_GATHERED_BUFFERS = 1024;

    private final Channel link;
    private final int maxMessage;
    private final MemorySegment staging;
    private final ByteBuffer stagingView;
    private final StagingChannel fileTarget = new StagingChannel();
    /** The staging buffer's first {@link #stagedLength} bytes as a segment, kept while sizes repeat. */
    private MemorySegment stagedSlice;
    private int stagedLength = -1;
    /** File bytes staged whose offer the send queue refused: they go first. */
    private int fileBytesStaged;
    /** Bytes the peer has room for now. */
    private long window;

    StreamOutbound(Channel link) {
        this.link = link;
        this.maxMessage = link.maxMessageSize();
        this.staging = Arena.ofAuto().allocate(maxMessage, 64);
        this.stagingView = staging.asByteBuffer();
    }

    /** The peer made room for {@code bytes} more. */
    void granted(long bytes) {
        window += bytes;
    }

    boolean hasWindow() {
        return window > 0;
    }

    /**
     * Writes what the window and the send queue take from {@code in}.
     *
     * @return true when everything flushed was written; false when writing waits for the peer
     * @throws IOException when the channel layer refuses the message (the channel has ended)
     */
    boolean write(ChannelOutboundBuffer in) throws IOException {
        while (true) {
            Object message = in.current();
            if (message == null) {
                return true;
            }
            boolean wrote;
            if (message instanceof ByteBuf buffer) {
                if (!buffer.isReadable()) {
                    in.remove();
                    continue;
                }
                wrote = writeBytes(in, buffer);
            } else if (message instanceof FileRegion region) {
                if (region.transferred() >= region.count()) {
                    in.remove();
                    continue;
                }
                wrote = writeFile(in, region);
            } else {
                in.remove(new UnsupportedOperationException("cannot write a " + message.getClass().getName()));
                continue;
            }
            if (!wrote) {
                return false;
            }
        }
    }

    private int budget() {
        return (int) Math.min(window, maxMessage);
    }

    private boolean writeBytes(ChannelOutboundBuffer in, ByteBuf first) throws IOException {
        int budget = budget();
        if (budget == 0) {
            return false;
        }
        ByteBuffer[] buffers = in.nioBuffers(MAX_GATHERED_BUFFERS, budget);
        int count = in.nioBufferCount();
        MemorySegment message;
        int length;
        if (count == 1 && buffers[0].remaining() >= OWN_MEMORY_MIN) {
            length = Math.min(buffers[0].remaining(), budget);
            message = MemorySegment.ofBuffer(buffers[0]).asSlice(0, length);
        } else if (count > 0) {
            length = stage(stagingView, buffers, count, budget);
            message = staged(length);
        } else {
            length = Math.min(first.readableBytes(), budget);
            stagingView.clear().limit(length);
            first.getBytes(first.readerIndex(), stagingView);
            message = staged(length);
        }
        if (!offer(message)) {
            return false;
        }
        window -= length;
        if (count > 0) {
            consumed(buffers, count, length);
        }
        in.removeBytes(length);
        return true;
    }

    /**
     * Copies the buffers into the staging buffer, up to {@code budget} bytes, leaving their
     * positions alone; how many it copied.
     */
    private static int stage(ByteBuffer staging, ByteBuffer[] buffers, int count, int budget) {
        int staged = 0;
        for (int i = 0; i < count && staged < budget; i++) {
            ByteBuffer source = buffers[i];
            int take = Math.min(source.remaining(), budget - staged);
            staging.put(staged, source, source.position(), take);
            staged += take;
        }
        return staged;
    }

    /**
     * Moves the buffers' positions past the {@code bytes} sent, as a socket's gathering write
     * does: the outbound buffer keeps a partly written buffer's NIO view and reads on from its
     * position.
     */
    private static void consumed(ByteBuffer[] buffers, int count, long bytes) {
        long left = bytes;
        for (int i = 0; i < count && left > 0; i++) {
            ByteBuffer source = buffers[i];
            int n = (int) Math.min(source.remaining(), left);
            source.position(source.position() + n);
            left -= n;
        }
    }

    private boolean writeFile(ChannelOutboundBuffer in, FileRegion region) throws IOException {
        int length = fileBytesStaged;
        if (length == 0) {
            int budget = budget();
            if (budget == 0) {
                return false;
            }
            stagingView.clear().limit(budget);
            region.transferTo(fileTarget, region.transferred());
            length = stagingView.position();
            if (length == 0) {
                throw new IOException("the file region gave no bytes at " + region.transferred() + " of "
                        + region.count());
            }
        }
        if (!offer(staged(length))) {
            fileBytesStaged = length; // read from the file already: offered again first
            return false;
        }
        fileBytesStaged = 0;
        window -= length;
        in.progress(length);
        if (region.transferred() >= region.count()) {
            in.remove();
        }
        return true;
    }

    private boolean offer(MemorySegment message) throws IOException {
        try {
            return link.offer(message, false, 0);
        } catch (RuntimeException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private MemorySegment staged(int length) {
        if (length != stagedLength) {
            stagedSlice = staging.asSlice(0, length);
            stagedLength = length;
        }
        return stagedSlice;
    }

    /** Where a file region's bytes go: the staging buffer, up to its limit. */
    private final class StagingChannel implements WritableByteChannel {
        @Override
        public int write(ByteBuffer source) {
            int n = Math.min(source.remaining(), stagingView.remaining());
            int limit = source.limit();
            source.limit(source.position() + n);
            stagingView.put(source);
            source.limit(limit);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            // the staging buffer stays
        }
    }
}
