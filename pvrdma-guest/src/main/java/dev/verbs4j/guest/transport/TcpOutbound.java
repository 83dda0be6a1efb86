package dev.verbs4j.guest.transport;

import dev.verbs4j.guest.linux.NativeSocket;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.List;

/**
 * What the TCP channel could not write to its socket at once: the rest of each frame copied, in
 * order, into one native buffer, and for each frame what to run once its last byte is out. The
 * loop then writes many queued frames with one system call.
 *
 * <p>Not thread-safe: the channel holds its write lock around every call.
 */
final class TcpOutbound {
    private static final long INITIAL_CAPACITY = 64 * 1024;

    private record Pending(long end, Runnable written) {}

    /** Unwritten bytes are [head, tail); new ones go at tail. GC-owned, so a late writer cannot touch freed memory. */
    private MemorySegment bytes = Arena.ofAuto().allocate(INITIAL_CAPACITY, 64);
    private long head;
    private long tail;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private long queued;
    private long written;

    boolean isEmpty() {
        return head == tail;
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
            pending.add(new Pending(queued, written));
        }
    }

    /**
     * Writes what the socket takes now; the actions of the frames that are out go to {@code done}
     * (for the caller to run outside its lock). True when nothing is left.
     */
    boolean writeTo(NativeSocket socket, List<Runnable> done) {
        while (head < tail) {
            long n = socket.write(bytes.address() + head, tail - head);
            if (n == 0) {
                break;
            }
            head += n;
            written += n;
        }
        while (!pending.isEmpty() && pending.peek().end() <= written) {
            done.add(pending.poll().written());
        }
        if (isEmpty()) {
            head = tail = 0;
            return true;
        }
        return false;
    }

    void clear() {
        head = tail = 0;
        pending.clear();
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
