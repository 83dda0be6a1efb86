package dev.verbs4j.guest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.List;

/**
 * What the TCP channel could not write to its socket at once: the rest of each frame copied, in
 * order, into one direct buffer, and for each frame what to run once its last byte is out. The
 * loop then writes many queued frames with one system call, and the JDK copies nothing (it
 * copies a heap buffer into a temporary direct one on every write).
 *
 * <p>Not thread-safe: the channel holds its write lock around every call.
 */
final class TcpOutbound {
    private static final int INITIAL_CAPACITY = 64 * 1024;

    private record Pending(long end, Runnable written) {}

    /** Unwritten bytes are [position, limit); new ones go at limit. */
    private ByteBuffer bytes = ByteBuffer.allocateDirect(INITIAL_CAPACITY).limit(0);
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private long queued;
    private long written;

    boolean isEmpty() {
        return !bytes.hasRemaining();
    }

    /** Copies what is left of {@code frame} behind what is queued; {@code written} (may be null) runs once it is out. */
    void add(ByteBuffer[] frame, Runnable written) {
        int size = 0;
        for (ByteBuffer b : frame) {
            size = Math.addExact(size, b.remaining());
        }
        makeRoom(size);
        int at = bytes.limit();
        bytes.limit(at + size);
        for (ByteBuffer b : frame) {
            int n = b.remaining();
            bytes.put(at, b, b.position(), n);
            b.position(b.position() + n);
            at += n;
        }
        queued += size;
        if (written != null) {
            pending.add(new Pending(queued, written));
        }
    }

    /**
     * Writes what the socket takes now; the actions of the frames that are out go to {@code done}
     * (for the caller to run outside its lock). True when nothing is left.
     */
    boolean writeTo(SocketChannel socket, List<Runnable> done) throws IOException {
        written += socket.write(bytes);
        while (!pending.isEmpty() && pending.peek().end() <= written) {
            done.add(pending.poll().written());
        }
        if (isEmpty()) {
            bytes.clear().limit(0);
            return true;
        }
        return false;
    }

    void clear() {
        bytes.clear().limit(0);
        pending.clear();
    }

    /** Moves the unwritten bytes to the front, and grows the buffer when that is not enough. */
    private void makeRoom(int size) {
        if (bytes.capacity() - bytes.limit() >= size) {
            return;
        }
        if (bytes.capacity() - bytes.remaining() >= size) {
            bytes.compact().flip();
            return;
        }
        long needed = (long) bytes.remaining() + size;
        ByteBuffer bigger = ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE - 8,
                Math.max(needed, 2L * bytes.capacity())));
        bytes = bigger.put(bytes).flip();
    }
}
