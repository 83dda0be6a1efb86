package dev.verbs4j.guest;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel over a TCP socket (Java NIO, framed by {@link TcpFrame}). The completion loop reads
 * frames and serves the peer's one-sided writes and reads against this side's registered
 * regions, with the key and bounds checks of an RDMA device. As on RDMA, an invalid access ends
 * the connection for both sides: the requester's operation fails with REMOTE_ACCESS, and so
 * does the channel.
 *
 * <p>Senders write straight to the socket when nothing is queued ahead of them (no thread hop
 * and no copy of the payload on the fast path); what the socket does not take at once is copied
 * to {@link TcpOutbound} and written by the loop, so the caller may reuse its memory either way.
 */
final class TcpChannel extends ChannelBase implements CompletionLoopSelectable {
    private static final Logger LOG = LoggerFactory.getLogger(TcpChannel.class);
    private static final int INITIAL_READ_BUFFER = 64 * 1024;

    private final SocketChannel socket;
    private final RegionTable regions = new RegionTable();
    private final Object writeLock = new Object();
    private final TcpOutbound outbound = new TcpOutbound();
    private final Map<Long, MemorySegment> readTargets = new ConcurrentHashMap<>();
    private SelectionKey key;
    private ByteBuffer in = ByteBuffer.allocateDirect(INITIAL_READ_BUFFER);

    private TcpChannel(SocketChannel socket, TransportChoice choice, int maxMessageSize, ChannelConfig config,
                       CompletionLoop loop, boolean ownsLoop) {
        super(choice, maxMessageSize, config, loop, ownsLoop);
        this.socket = socket;
    }

    /** Takes over a connected socket (after the bootstrap exchange) and starts serving it. */
    static TcpChannel start(SocketChannel socket, TransportChoice choice, int maxMessageSize, ChannelConfig config,
                            CompletionLoop loop, boolean ownsLoop) throws IOException {
        socket.configureBlocking(false);
        TcpChannel channel = new TcpChannel(socket, choice, maxMessageSize, config, loop, ownsLoop);
        channel.key = loop.register(socket, SelectionKey.OP_READ, channel);
        return channel;
    }

    @Override
    public RegisteredRegion register(long size) {
        checkOpen();
        return regions.register(size);
    }

    // ---- requests ------------------------------------------------------------------------

    @Override
    void startSend(MemorySegment message, boolean hasImmediate, int immediate, CompletableFuture<Void> done) {
        long id = operations.add(done, credits::release);
        submit(id, () -> TcpFrame.message(message, hasImmediate, immediate), () -> operations.complete(id));
    }

    @Override
    void startWrite(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                    long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done, credits::release);
        submit(id, () -> TcpFrame.write(id, remoteAddress, remote.key(), local), null);
    }

    @Override
    void startRead(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                   long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done, credits::release);
        readTargets.put(id, local);
        submit(id, () -> TcpFrame.read(id, remoteAddress, remote.key(), (int) local.byteSize()), null);
    }

    /** Encodes and queues a request; a failure fails the operation instead of throwing. */
    private void submit(long id, java.util.function.Supplier<ByteBuffer[]> frame, Runnable written) {
        try {
            enqueue(frame.get(), written);
        } catch (ChannelException e) {
            readTargets.remove(id);
            operations.fail(id, e);
        }
    }

    @Override
    void sayGoodbye() {
        enqueue(TcpFrame.close(), this::shutdownOutput);
    }

    // ---- writing -------------------------------------------------------------------------

    /** Writes now if nothing is queued ahead, else queues a copy for the loop; {@code written} runs once sent. */
    private void enqueue(ByteBuffer[] frame, Runnable written) {
        boolean sent = false;
        synchronized (writeLock) {
            if (!socket.isOpen()) {
                throw new ChannelException(ChannelError.PEER_LOST, "the connection is closed");
            }
            boolean nothingAhead = outbound.isEmpty();
            if (nothingAhead) {
                try {
                    socket.write(frame);
                } catch (IOException e) {
                    lost(e);
                    throw new ChannelException(ChannelError.PEER_LOST, "writing to the peer failed: " + e.getMessage(), e);
                }
                sent = !frame[frame.length - 1].hasRemaining();
            }
            if (!sent) {
                outbound.add(frame, written);
                if (nothingAhead && key.isValid()) {
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    loop.wakeup();
                }
            }
        }
        if (sent && written != null) {
            written.run();
        }
    }

    /** Loop thread: writes what is queued while the socket takes it. */
    private void flush() {
        List<Runnable> done = new ArrayList<>();
        synchronized (writeLock) {
            try {
                if (outbound.writeTo(socket, done) && key.isValid()) {
                    key.interestOps(SelectionKey.OP_READ);
                }
            } catch (IOException e) {
                lost(e);
                return;
            }
        }
        done.forEach(Runnable::run);
    }

    private void shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            LOG.debug("shutting the socket's output down failed: {}", e.getMessage());
        }
    }

    // ---- reading -------------------------------------------------------------------------

    @Override
    public void onSelected(SelectionKey k) {
        if (k.isValid() && k.isWritable()) {
            flush();
        }
        if (k.isValid() && k.isReadable()) {
            readAvailable();
        }
    }

    private void readAvailable() {
        try {
            while (true) {
                int n = socket.read(in);
                if (n < 0) {
                    eof();
                    return;
                }
                if (n == 0) {
                    return;
                }
                parseFrames();
                if (endCause() != null) {
                    return;
                }
            }
        } catch (IOException e) {
            lost(e);
        }
    }

    /** Handles every whole frame in the buffer; keeps a partial one for the next read. */
    private void parseFrames() {
        in.flip();
        while (in.remaining() >= TcpFrame.LENGTH_FIELD) {
            int body = in.getInt(in.position());
            if (body < 1) {
                in.clear();
                lost(new IOException("corrupt frame length " + body));
                return;
            }
            if (in.remaining() < TcpFrame.LENGTH_FIELD + body) {
                if (TcpFrame.LENGTH_FIELD + body > in.capacity()) {
                    grow(TcpFrame.LENGTH_FIELD + body);
                    return;
                }
                break;
            }
            int start = in.position() + TcpFrame.LENGTH_FIELD;
            ByteBuffer frame = in.slice(start, body);
            in.position(start + body);
            handle(frame);
            if (endCause() != null) {
                return;
            }
        }
        in.compact();
    }

    /** Makes room for a frame larger than the buffer (called with the buffer flipped). */
    private void grow(int frameSize) {
        ByteBuffer bigger = ByteBuffer.allocateDirect(Math.max(frameSize, in.capacity() * 2));
        bigger.put(in);
        in = bigger;
    }

    private void handle(ByteBuffer f) {
        byte type = f.get();
        switch (type) {
            case TcpFrame.MESSAGE -> {
                boolean hasImmediate = (f.get() & 1) != 0;
                int immediate = f.getInt();
                inbox.deliver(this, new ChannelMessage(copy(f), hasImmediate, immediate));
            }
            case TcpFrame.WRITE -> serveWrite(f.getLong(), f.getLong(), f.getInt(), f);
            case TcpFrame.READ -> serveRead(f.getLong(), f.getLong(), f.getInt(), f.getInt());
            case TcpFrame.WRITE_DONE -> finish(f.getLong(), f.get());
            case TcpFrame.READ_DONE -> {
                long id = f.getLong();
                byte status = f.get();
                MemorySegment target = readTargets.remove(id);
                if (status == TcpFrame.STATUS_OK && target != null) {
                    target.copyFrom(MemorySegment.ofBuffer(f));
                }
                finish(id, status);
            }
            case TcpFrame.CLOSE -> end(new ChannelException(ChannelError.PEER_CLOSED, "the peer closed the channel"));
            default -> lost(new IOException("unknown frame type " + type));
        }
    }

    private static MemorySegment copy(ByteBuffer payload) {
        byte[] bytes = new byte[payload.remaining()];
        payload.get(bytes);
        return MemorySegment.ofArray(bytes);
    }

    private void serveWrite(long id, long address, int key, ByteBuffer payload) {
        try {
            MemorySegment target = regions.resolve(address, key, payload.remaining());
            target.copyFrom(MemorySegment.ofBuffer(payload));
            enqueue(TcpFrame.writeDone(id, TcpFrame.STATUS_OK), null);
        } catch (ChannelException e) {
            refuse(TcpFrame.writeDone(id, TcpFrame.STATUS_REMOTE_ACCESS), e);
        }
    }

    private void serveRead(long id, long address, int key, int length) {
        try {
            MemorySegment source = regions.resolve(address, key, length);
            enqueue(TcpFrame.readDone(id, TcpFrame.STATUS_OK, source), null);
        } catch (ChannelException e) {
            refuse(TcpFrame.readDone(id, TcpFrame.STATUS_REMOTE_ACCESS, MemorySegment.NULL), e);
        }
    }

    /** An invalid access ends the connection here too, as it moves an RC responder QP to ERR. */
    private void refuse(ByteBuffer[] nak, ChannelException why) {
        if (why.error() != ChannelError.REMOTE_ACCESS) {
            throw why;
        }
        ChannelException cause = new ChannelException(ChannelError.REMOTE_ACCESS,
                "the peer made an invalid one-sided access: " + why.getMessage());
        try {
            enqueue(nak, () -> end(cause));
        } catch (ChannelException e) {
            end(cause);
        }
    }

    private void finish(long id, byte status) {
        if (status == TcpFrame.STATUS_OK) {
            operations.complete(id);
            return;
        }
        ChannelException e = new ChannelException(ChannelError.REMOTE_ACCESS,
                "the peer refused the access (unknown key or outside its region)");
        operations.fail(id, e);
        end(e);
    }

    private void eof() {
        if (closing) {
            peerDone.complete(null);
            end(new ChannelException(ChannelError.CLOSED, "the channel was closed by this side"));
        } else {
            end(new ChannelException(ChannelError.PEER_LOST, "the peer went away without closing the channel"));
        }
    }

    private void lost(IOException e) {
        if (closing) {
            peerDone.complete(null);
        }
        end(new ChannelException(ChannelError.PEER_LOST, "the connection broke: " + e.getMessage(), e));
    }

    @Override
    void releaseResources() {
        if (key != null) {
            key.cancel();
        }
        synchronized (writeLock) {
            outbound.clear();
            try {
                socket.close();
            } catch (IOException e) {
                LOG.debug("closing the socket failed: {}", e.getMessage());
            }
        }
        readTargets.clear(); // the regions stay: their owner closes them, and may still read them
    }
}
