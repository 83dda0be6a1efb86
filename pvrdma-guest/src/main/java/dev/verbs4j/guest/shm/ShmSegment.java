package dev.verbs4j.guest.shm;

import dev.verbs4j.unix.EventFd;
import dev.verbs4j.unix.FileDescriptor;
import dev.verbs4j.unix.SharedMemory;
import dev.verbs4j.unix.UnixSocket;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * What a shared-memory channel holds: the mapped segment, the unix socket to the peer (kept
 * open for the channel's life: the kernel closes it when the peer dies, however it dies), this
 * side's wake-up eventfd (in its loop's epoll set) and the peer's (which this side signals).
 *
 * <p>The creator makes the memfd, seals it against shrinking and growing and sends it with its
 * eventfd over the unix socket (SCM_RIGHTS); the attacher checks the seals and the size against
 * the capacity both sides computed from the bootstrap's statements, maps it and answers with
 * its own eventfd. Neither trusts the segment's contents from then on. Nothing outlives
 * {@link #close}: no file, no mapping, no fd.
 */
final class ShmSegment implements AutoCloseable {
    private static final int SETUP_BYTES = 8;

    final UnixSocket socket;
    final MemorySegment memory;
    final long capacity;
    final boolean creator;
    final EventFd ownWake;
    final EventFd peerWake;
    private final Arena arena;

    private ShmSegment(UnixSocket socket, Arena arena, MemorySegment memory, long capacity, boolean creator,
                       EventFd ownWake, EventFd peerWake) {
        this.socket = socket;
        this.arena = arena;
        this.memory = memory;
        this.capacity = capacity;
        this.creator = creator;
        this.ownWake = ownWake;
        this.peerWake = peerWake;
    }

    /** The creator's side of the set-up on a connected, verified unix socket. */
    static ShmSegment create(UnixSocket socket, long capacity, Duration timeout) throws IOException {
        long size = ShmLayout.segmentSize(capacity);
        int memfd = SharedMemory.createSealed("verbs4j-shm", size);
        Arena arena = Arena.ofShared();
        EventFd own = null;
        try {
            MemorySegment memory = SharedMemory.map(memfd, size, arena);
            memory.set(ValueLayout.JAVA_LONG, 0, ShmLayout.MAGIC);
            memory.set(ValueLayout.JAVA_LONG, 16, capacity);
            own = new EventFd();
            socket.send(ByteBuffer.allocate(SETUP_BYTES).putLong(0, capacity).array(), memfd, own.fd());
            FileDescriptor.close(memfd);
            memfd = -1;
            EventFd peer = EventFd.adopt(receiveOneFd(socket, timeout, "its eventfd"));
            return new ShmSegment(socket, arena, memory, capacity, true, own, peer);
        } catch (IOException | RuntimeException e) {
            if (memfd >= 0) {
                FileDescriptor.close(memfd);
            }
            if (own != null) {
                own.close();
            }
            arena.close();
            throw e;
        }
    }

    /** The attacher's side: takes the segment the creator sent, checked, and answers with its eventfd. */
    static ShmSegment attach(UnixSocket socket, long capacity, Duration timeout) throws IOException {
        UnixSocket.Received setup = socket.receive(SETUP_BYTES, timeout);
        int[] fds = setup.fds();
        Arena arena = Arena.ofShared();
        EventFd peer = null, own = null;
        try {
            if (fds.length != 2 || setup.data().length != SETUP_BYTES) {
                throw new IOException("the peer sent " + setup.data().length + " bytes and " + fds.length
                        + " fds, not the segment and its eventfd");
            }
            peer = EventFd.adopt(fds[1]);
            long stated = ByteBuffer.wrap(setup.data()).getLong(0);
            long size = ShmLayout.segmentSize(capacity);
            int seals = SharedMemory.seals(fds[0]);
            if (stated != capacity) {
                throw new IOException("the peer made rings of " + stated + " bytes, this side expects " + capacity);
            }
            if ((seals & SharedMemory.SIZE_SEALS) != SharedMemory.SIZE_SEALS) {
                throw new IOException(String.format("the peer's segment is not sealed against resizing (seals 0x%x)", seals));
            }
            if (SharedMemory.size(fds[0]) != size) {
                throw new IOException("the peer's segment has " + SharedMemory.size(fds[0]) + " bytes, not " + size);
            }
            MemorySegment memory = SharedMemory.map(fds[0], size, arena);
            if (memory.get(ValueLayout.JAVA_LONG, 0) != ShmLayout.MAGIC) {
                throw new IOException("the peer's segment is not a verbs4j channel's");
            }
            own = new EventFd();
            socket.send(new byte[] {1}, own.fd());
            return new ShmSegment(socket, arena, memory, capacity, false, own, peer);
        } catch (IOException | RuntimeException e) {
            if (peer != null) {
                peer.close();
            } else if (fds.length > 1) {
                FileDescriptor.close(fds[1]);
            }
            if (own != null) {
                own.close();
            }
            arena.close();
            throw e;
        } finally {
            for (int i = 2; i < fds.length; i++) {
                FileDescriptor.close(fds[i]);
            }
            if (fds.length > 0) {
                FileDescriptor.close(fds[0]); // mapped or refused: the mapping keeps the memory
            }
        }
    }

    private static int receiveOneFd(UnixSocket socket, Duration timeout, String what) throws IOException {
        UnixSocket.Received answer = socket.receive(SETUP_BYTES, timeout);
        int[] fds = answer.fds();
        if (fds.length != 1) {
            for (int fd : fds) {
                FileDescriptor.close(fd);
            }
            throw new IOException("the peer did not send " + what + " (" + fds.length + " fds, "
                    + answer.data().length + " bytes)");
        }
        return fds[0];
    }

    /** The data of the ring this side writes. */
    MemorySegment outData() {
        return memory.asSlice(ShmLayout.dataOf(creator, capacity), capacity);
    }

    MemorySegment outControl() {
        return memory.asSlice(ShmLayout.controlOf(creator), ShmLayout.PAGE / 8);
    }

    MemorySegment inData() {
        return memory.asSlice(ShmLayout.dataOf(!creator, capacity), capacity);
    }

    MemorySegment inControl() {
        return memory.asSlice(ShmLayout.controlOf(!creator), ShmLayout.PAGE / 8);
    }

    /** Unmaps the segment (an access after this is a Java exception), closes the eventfds and the socket. */
    @Override
    public void close() {
        try {
            arena.close();
        } finally {
            ownWake.close();
            peerWake.close();
            socket.close();
        }
    }
}
