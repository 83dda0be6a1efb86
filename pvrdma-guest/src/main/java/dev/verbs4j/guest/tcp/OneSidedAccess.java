package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.guest.channel.ChannelOperations;
import dev.verbs4j.guest.channel.OneSidedBook;
import java.lang.foreign.MemorySegment;

/**
 * RDMA's one-sided writes and reads, emulated over a TCP channel's frames. As the responder, the
 * loop serves the peer's WRITE and READ against this side's registered regions, with the key and
 * bounds checks of an RDMA device; as on RDMA, an invalid access ends the connection for both
 * sides: the requester's operation fails with REMOTE_ACCESS, and so does the channel. As the
 * requester, this side's reads wait here for their data, and the peer's answers complete them.
 *
 * <p>No lock of its own: the regions and the reads waiting are concurrent tables, and the frames
 * come under the reading lock. Answers are written with {@link FrameWriter} (its write lock), and
 * the channel ends only after that lock is let go.
 */
final class OneSidedAccess {
    /** The regions, and this side's reads that wait for the peer's READ_DONE. */
    private final OneSidedBook book = new OneSidedBook();
    private final FrameWriter writer;
    private final ChannelOperations operations;
    private final TcpChannel channel;

    OneSidedAccess(FrameWriter writer, ChannelOperations operations, TcpChannel channel) {
        this.writer = writer;
        this.operations = operations;
        this.channel = channel;
    }

    RegisteredRegion register(long size) {
        return book.register(size);
    }

    /** The longest payload a valid WRITE of the peer's may carry: the largest region registered here. */
    long longestWrite() {
        return book.largestRegion();
    }

    /** The longest payload a valid READ_DONE may carry: the longest read this side is waiting for. */
    long longestReadAnswer() {
        return book.longestReadTarget();
    }

    // ---- this side's requests ------------------------------------------------------------------

    /** Operation {@code id} reads into {@code local} once the peer's data comes. */
    void expectRead(long id, MemorySegment local) {
        book.expectRead(id, local);
    }

    /** Operation {@code id} did not go out: nothing comes for it. */
    void forgetRead(long id) {
        book.takeRead(id);
    }

    void writeDone(long id, byte status) {
        finish(id, status);
    }

    void readDone(long id, byte status, MemorySegment in, long payloadAt, int length) {
        MemorySegment target = book.takeRead(id);
        if (status == TcpFrame.STATUS_OK && target != null) {
            MemorySegment.copy(in, payloadAt, target, 0, Math.min(target.byteSize(), length));
        }
        finish(id, status);
    }

    private void finish(long id, byte status) {
        if (status == TcpFrame.STATUS_OK) {
            operations.complete(id);
            return;
        }
        ChannelException e = OneSidedBook.refusedByPeer();
        operations.fail(id, e);
        channel.endWith(e);
    }

    /** The channel ended: no read waits any more (the regions stay: their owner closes them, and may still read them). */
    void clear() {
        book.clear();
    }

    // ---- the peer's requests -------------------------------------------------------------------

    void serveWrite(long id, long address, int key, MemorySegment in, long payloadAt, int length) {
        ChannelException refused = null;
        try {
            MemorySegment target = book.resolve(address, key, length);
            MemorySegment.copy(in, payloadAt, target, 0, length);
        } catch (ChannelException e) {
            refused = OneSidedBook.refusal(e);
        }
        afterResponse(writer.writeDone(id, refused));
    }

    void serveRead(long id, long address, int key, int length) {
        ChannelException refused = null;
        MemorySegment source = MemorySegment.NULL;
        try {
            source = book.resolve(address, key, length);
        } catch (ChannelException e) {
            refused = OneSidedBook.refusal(e);
        }
        afterResponse(writer.readDone(id, source, refused));
    }

    /**
     * After the write lock: ends the channel when a refusal is out (ending takes the lock, and
     * on a receiving thread it waits for the loop, which may need the lock first).
     */
    private void afterResponse(ChannelException endNow) {
        writer.afterWrite();
        if (endNow != null) {
            channel.endWith(endNow);
        }
    }
}
