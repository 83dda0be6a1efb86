package dev.verbs4j.guest.shm;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.channel.OneSidedBook;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * RDMA's one-sided writes and reads between processes that share a ring: the request goes as a
 * record, the peer's loop checks key and bounds against its registered regions as an RDMA
 * device does and copies, and answers. An invalid access ends the channel on both sides, as it
 * moves an RC queue pair to the error state: the requester's operation fails with
 * REMOTE_ACCESS, and so does the channel.
 */
final class ShmOneSided {
    /** The regions, and this side's reads that wait for the peer's answer. */
    final OneSidedBook book = new OneSidedBook();
    private final ShmChannel channel;

    ShmOneSided(ShmChannel channel) {
        this.channel = channel;
    }

    /** The peer's WRITE at {@code body} of {@code ring}: copied into the region it names, or refused. */
    void serveWrite(MemorySegment ring, long body, int bodyLength) {
        long id = ring.get(ValueLayout.JAVA_LONG, body + ShmRecord.ID);
        long address = ring.get(ValueLayout.JAVA_LONG, body + ShmRecord.ADDRESS);
        int key = ring.get(ValueLayout.JAVA_INT, body + ShmRecord.KEY);
        int length = bodyLength - ShmRecord.REQUEST_FIELDS;
        ChannelException refused = null;
        try {
            MemorySegment target = book.resolve(address, key, length);
            MemorySegment.copy(ring, body + ShmRecord.REQUEST_FIELDS, target, 0, length);
        } catch (ChannelException e) {
            refused = OneSidedBook.refusal(e);
        }
        channel.answer(ShmRecord.WRITE_DONE, id, refused == null, MemorySegment.NULL);
        if (refused != null) {
            channel.endWith(refused);
        }
    }

    /** The peer's READ: answered with the bytes of the region it names, or refused. */
    void serveRead(MemorySegment ring, long body, int maxMessageSize) {
        long id = ring.get(ValueLayout.JAVA_LONG, body + ShmRecord.ID);
        long address = ring.get(ValueLayout.JAVA_LONG, body + ShmRecord.ADDRESS);
        int key = ring.get(ValueLayout.JAVA_INT, body + ShmRecord.KEY);
        int length = ring.get(ValueLayout.JAVA_INT, body + ShmRecord.READ_LENGTH);
        if (length < 0 || length > maxMessageSize) {
            channel.endWith(new ChannelException(ChannelError.TRANSPORT, "the peer's ring is corrupt: a read of "
                    + length + " bytes, over the agreed maximum of " + maxMessageSize));
            return;
        }
        ChannelException refused = null;
        MemorySegment source = MemorySegment.NULL;
        try {
            source = book.resolve(address, key, length);
        } catch (ChannelException e) {
            refused = OneSidedBook.refusal(e);
        }
        channel.answer(ShmRecord.READ_DONE, id, refused == null, source);
        if (refused != null) {
            channel.endWith(refused);
        }
    }

    /** The peer's answer to this side's WRITE or READ. */
    void answered(MemorySegment ring, long body, int bodyLength) {
        long id = ring.get(ValueLayout.JAVA_LONG, body + ShmRecord.ID);
        boolean ok = ring.get(ValueLayout.JAVA_INT, body + ShmRecord.STATUS) == ShmRecord.STATUS_OK;
        MemorySegment target = book.takeRead(id);
        if (ok && target != null) {
            long length = Math.min(target.byteSize(), bodyLength - ShmRecord.ANSWER_FIELDS);
            MemorySegment.copy(ring, body + ShmRecord.ANSWER_FIELDS, target, 0, length);
        }
        if (ok) {
            channel.completeOperation(id);
            return;
        }
        ChannelException e = OneSidedBook.refusedByPeer();
        channel.failOperation(id, e);
        channel.endWith(e);
    }
}
