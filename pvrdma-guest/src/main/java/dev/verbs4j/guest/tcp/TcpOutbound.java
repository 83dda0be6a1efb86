package dev.verbs4j.guest.tcp;

import dev.verbs4j.unix.Iovecs;
import dev.verbs4j.unix.NativeSocket;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What the TCP channel could not write to its socket at once: the rest of each frame copied, in
 * order, into one native buffer, and for each frame what to run once its last byte is out. The
 * loop then writes many queued frames with one system call.
 *
 * <p>A sender that waits until its frame is out may instead lend the rest of its payload: it goes
 * first in line (behind the rest of its header) with no copy, and the sender keeps that memory as
 * it is until the bytes are out or {@link #copyLent} took them.
 *
 * <p>Not thread-safe: the channel holds its write lock around every call.
 */
final class TcpOutbound {
    private static final long INITIAL_CAPACITY = 64 * 1024;

    /** Unwritten bytes are [head, tail); new ones go at tail. GC-owned, so a late writer cannot touch freed memory. */
    private MemorySegment bytes = Arena.ofAuto().allocate(INITIAL_CAPACITY, 64);
    private long head;
    private long tail;
    private final FrameMarks marks = new FrameMarks();
    private long queued;
    private long written;
    /** The rest of a lending sender's header, copied (the channel reuses its header memory); [lentHeaderAt, lentHeaderEnd). */
    private final MemorySegment lentHeader = Arena.ofAuto().allocate(TcpFrame.MAX_HEADER, 8);
    private long lentHeaderAt;
    private long lentHeaderEnd;
    /** A waiting sender's own payload bytes, written right after its header and before the copied ones; lentLength 0 when none. */
    private long lentAddress;
    private long lentLength;
    private final Iovecs iovecs = new Iovecs(Arena.ofAuto(), 3);

    boolean isEmpty() {
        return head == tail && lentLength == 0 && lentHeaderAt == lentHeaderEnd;
    }

    /**
     * Queues the rest of a frame whose payload is not copied: {@code headerLength} bytes of
     * {@code header} from {@code headerOffset} (copied: few), then {@code length} bytes at native
     * {@code address} (lent). Only on an empty queue, as the lent bytes must go first.
     */
    void lend(MemorySegment header, long headerOffset, long headerLength, long address, long length) {
        if (!isEmpty() || headerLength > lentHeader.byteSize()) {
            throw new IllegalStateException("lending needs an empty queue: the lent bytes go first");
        }
        MemorySegment.copy(header, headerOffset, lentHeader, 0, headerLength);
        lentHeaderAt = 0;
        lentHeaderEnd = headerLength;
        lentAddress = address;
        lentLength = length;
        queued += headerLength + length;
    }

    /** Whether lent bytes are still unwritten (their owner must not touch or free them yet). */
    boolean holdsLent() {
        return lentLength > 0;
    }

    /** Copies the unwritten lent frame in front of the copied bytes, so the payload's owner may go. */
    void copyLent() {
        if (lentLength == 0) {
            return; // the header goes before the payload: with the payload out, it is out too
        }
        long headerLeft = lentHeaderEnd - lentHeaderAt;
        long lent = headerLeft + lentLength;
        long left = tail - head;
        makeRoom(lent); // room for both, from 0 on after the move below
        MemorySegment.copy(bytes, head, bytes, lent, left);
        MemorySegment.copy(lentHeader, lentHeaderAt, bytes, 0, headerLeft);
        MemorySegment.copy(MemorySegment.ofAddress(lentAddress).reinterpret(lentLength), 0, bytes, headerLeft,
                lentLength);
        head = 0;
        tail = lent + left;
        lentHeaderAt = lentHeaderEnd = 0;
        lentLength = 0;
    }

    /** Copies {@code length} bytes at native {@code address} behind what is queued. */
    void add(long address, long length) {
        if (length <= 0) {
            return;
        }
        makeRoom(length);
        MemorySegment.copy(MemorySegment.ofAddress(address).reinterpret(length), 0, bytes, tail, length);
        tail += length;
        queued += length;
    }

    /** {@code written} (may be null) runs once everything added so far is out. */
    void mark(Runnable written) {
        if (written != null) {
            marks.add(queued, FrameMarks.NO_OPERATION, written);
        }
    }

    /** The channel's operation {@code id} completes once everything added so far is out. */
    void markOperation(long id) {
        marks.add(queued, id, null);
    }

    /**
     * Writes what the socket takes now; the marks of the frames that are out go to {@code done}
     * (for the caller to run outside its lock). True when nothing is left.
     */
    boolean writeTo(NativeSocket socket, WrittenFrames done) {
        while (!isEmpty()) {
            long n = socket.write(iovecs.clear()
                    .add(lentHeader.address() + lentHeaderAt, lentHeaderEnd - lentHeaderAt)
                    .add(lentAddress, lentLength)
                    .add(bytes.address() + head, tail - head));
            if (n == 0) {
                break;
            }
            written += n;
            long header = Math.min(n, lentHeaderEnd - lentHeaderAt);
            lentHeaderAt += header;
            long lent = Math.min(n - header, lentLength);
            lentAddress += lent;
            lentLength -= lent;
            head += n - header - lent;
        }
        marks.takeWritten(written, done);
        if (isEmpty()) {
            head = tail = 0;
            return true;
        }
        return false;
    }

    void clear() {
        head = tail = 0;
        lentHeaderAt = lentHeaderEnd = 0;
        lentLength = 0;
        marks.clear();
    }

    /** Moves the unwritten bytes to the front, and grows the buffer when that is not enough. */
    private void makeRoom(long size) {
        if (bytes.byteSize() - tail >= size) {
            return;
        }
        long left = tail - head;
        if (bytes.byteSize() - left >= size) {
            MemorySegment.copy(bytes, head, bytes, 0, left);
        } else {
            MemorySegment bigger = Arena.ofAuto().allocate(Math.max(left + size, 2 * bytes.byteSize()), 64);
            MemorySegment.copy(bytes, head, bigger, 0, left);
            bytes = bigger;
        }
        head = 0;
        tail = left;
    }
}
