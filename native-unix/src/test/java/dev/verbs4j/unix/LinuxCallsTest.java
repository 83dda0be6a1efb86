package dev.verbs4j.unix;

import dev.verbs4j.unix.Epoll;
import dev.verbs4j.unix.EventFd;
import dev.verbs4j.unix.LinuxCallException;
import dev.verbs4j.unix.NativeSocket;
import dev.verbs4j.unix.testing.LoopbackSockets;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The libc layer under the completion loop, on real fds of this host. */
class LinuxCallsTest {

    @Test
    void signalsRacingTheCloseNeitherFailNorStopIt() throws Exception {
        for (int round = 0; round < 200; round++) {
            EventFd e = new EventFd();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread[] signallers = new Thread[2];
            for (int t = 0; t < signallers.length; t++) {
                signallers[t] = Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 2000; i++) {
                            e.signal();
                        }
                    } catch (Throwable x) {
                        failed.set(x);
                    }
                });
            }
            e.close(); // while they signal: the memory a signal writes from is freed here
            for (Thread t : signallers) {
                t.join();
            }
            assertNull(failed.get(), "a signal after or during the close");
        }
    }

    @Test
    void anEventfdSumsSignalsUntilDrained() {
        try (EventFd e = new EventFd()) {
            assertEquals(0, e.drain());
            e.signal();
            e.signal();
            assertEquals(2, e.drain());
            assertEquals(0, e.drain());
        }
    }

    @Test
    void epollReportsAnEventfdSignalledFromAnotherThread() throws Exception {
        try (Epoll epoll = new Epoll(4); EventFd e = new EventFd()) {
            epoll.add(e.fd(), Epoll.IN);
            assertEquals(0, epoll.await(0), "nothing ready yet");
            Thread.ofPlatform().start(e::signal).join();
            assertEquals(1, epoll.await(-1));
            assertEquals(e.fd(), epoll.readyFd(0));
            assertTrue((epoll.readyEvents(0) & Epoll.IN) != 0);
            e.drain();
            assertEquals(0, epoll.await(0), "level-triggered: drained means not ready");
        }
    }

    @Test
    void epollWaitsInNanosecondsToo() throws Exception {
        try (Epoll epoll = new Epoll(4); EventFd e = new EventFd()) {
            epoll.add(e.fd(), Epoll.IN);
            assertEquals(0, epoll.awaitNanos(0), "nothing ready yet");
            assertEquals(0, epoll.awaitNanos(50_000), "a 50 us wait with nothing ready times out");
            assertEquals(0, epoll.awaitNanos(1_000_050_000L), "seconds and nanoseconds both count");
            Thread.ofPlatform().start(e::signal).join();
            assertEquals(1, epoll.awaitNanos(-1), "no limit: waits for the signal");
            assertEquals(e.fd(), epoll.readyFd(0));
        }
    }

    @Test
    void bothEndsOfAConnectionNameEachOthersAddress() throws Exception {
        try (LoopbackSockets pair = LoopbackSockets.open()) {
            assertEquals(pair.listener().localAddress(), pair.sender().remoteAddress());
            assertEquals(pair.sender().localAddress(), pair.receiver().remoteAddress());
            assertEquals(pair.receiver().localAddress(), pair.sender().remoteAddress());
            assertEquals("127.0.0.1", pair.sender().localAddress().getAddress().getHostAddress());
            assertTrue(pair.sender().localAddress().getPort() > 0);
        }
    }

    @Test
    void aRefusedConnectSaysTheErrnoByName() throws Exception {
        int port;
        try (NativeSocket s = NativeSocket.listen("127.0.0.1", 0, 1)) {
            port = s.localPort();
        } // closed: nobody listens there now
        LinuxCallException e = assertThrows(LinuxCallException.class,
                () -> NativeSocket.connect("127.0.0.1", port, Duration.ofSeconds(10)));
        assertEquals(111, e.errno());
        assertTrue(e.getMessage().contains("ECONNREFUSED"), e.getMessage());
    }

    @Test
    void aPeerLossTimeoutIsTheSocketsUserTimeout() throws Exception {
        try (LoopbackSockets pair = LoopbackSockets.open()) {
            assertEquals(0, pair.sender().peerLossTimeoutMillis(), "the kernel's own limits until set");
            pair.sender().setPeerLossTimeout(Duration.ofMillis(4500));
            assertEquals(4500, pair.sender().peerLossTimeoutMillis());
        }
    }

    @Test
    void bytesWrittenWithWritevArriveInOrderAndEndOfStreamReadsAsMinusOne() throws Exception {
        try (Arena arena = Arena.ofConfined();
             LoopbackSockets pair = LoopbackSockets.open()) {
            NativeSocket a = pair.sender();
            NativeSocket b = pair.receiver();
            MemorySegment one = arena.allocateFrom("abc");
            MemorySegment two = arena.allocateFrom("defg");
            var iov = new dev.verbs4j.unix.Iovecs(arena, 2).add(one.address(), 3).add(two.address(), 4);
            assertEquals(7, a.write(iov));
            a.shutdownOutput();
            assertEquals("abcdefg", readAll(b, arena));
        }
    }

    @Test
    void anIovecListRefilledWithOtherEntriesWritesThoseEntries() throws Exception {
        try (Arena arena = Arena.ofConfined();
             LoopbackSockets pair = LoopbackSockets.open()) {
            MemorySegment one = arena.allocateFrom("abc");
            MemorySegment two = arena.allocateFrom("defg");
            var iov = new dev.verbs4j.unix.Iovecs(arena, 2);
            assertEquals(7, pair.sender().write(iov.clear().add(one.address(), 3).add(two.address(), 4)));
            assertEquals(7, pair.sender().write(iov.clear().add(one.address(), 3).add(two.address(), 4)));
            assertEquals(7, pair.sender().write(iov.clear().add(two.address(), 4).add(one.address(), 3)));
            assertEquals(2, pair.sender().write(iov.clear().add(one.address() + 1, 2)));
            assertEquals(5, pair.sender().write(iov.clear().add(two.address(), 0).add(one.address(), 1).add(two.address(), 4)));
            pair.sender().shutdownOutput();
            assertEquals("abcdefg" + "abcdefg" + "defgabc" + "bc" + "adefg", readAll(pair.receiver(), arena));
        }
    }

    @Test
    void aWriteToAResetConnectionSaysItsErrnoByName() throws Exception {
        try (Arena arena = Arena.ofConfined();
             LoopbackSockets pair = LoopbackSockets.open()) {
            MemorySegment bytes = arena.allocateFrom("unread");
            var iov = new dev.verbs4j.unix.Iovecs(arena, 1).add(bytes.address(), 6);
            assertEquals(6, pair.sender().write(iov));
            pair.receiver().close(); // bytes left unread: the kernel answers with a reset
            LinuxCallException failed = null;
            for (int attempt = 0; attempt < 100 && failed == null; attempt++) {
                try {
                    pair.sender().write(iov);
                    pair.sender().await(dev.verbs4j.unix.FileDescriptor.POLLOUT, -1, 100);
                } catch (LinuxCallException e) {
                    failed = e;
                }
            }
            assertTrue(failed != null, "writes to a reset connection kept succeeding");
            assertTrue(failed.errno() == Errno.ECONNRESET || failed.errno() == Errno.EPIPE,
                    failed.getMessage());
            assertTrue(failed.getMessage().contains("sendmsg"), failed.getMessage());
        }
    }

    @Test
    void aHangUpIsSeenWithoutTakingTheBytesStillToRead() throws Exception {
        try (Arena arena = Arena.ofConfined();
             LoopbackSockets pair = LoopbackSockets.open()) {
            NativeSocket receiver = pair.receiver();
            assertFalse(receiver.peerHungUp(), "an open connection");
            MemorySegment bytes = arena.allocateFrom("abc");
            assertEquals(3, pair.sender().write(bytes.address(), 3));
            receiver.await(dev.verbs4j.unix.FileDescriptor.POLLIN, -1, 10_000);
            assertFalse(receiver.peerHungUp(), "bytes to read are no hang-up");
            pair.sender().close();
            receiver.await(dev.verbs4j.unix.FileDescriptor.POLLRDHUP, -1, 10_000);
            assertTrue(receiver.peerHungUp(), "the peer closed");
            assertEquals("abc", readAll(receiver, arena), "what came before the close is still there");
        }
    }

    /** Reads until end of stream (up to 64 bytes), waiting for more while none is there. */
    private static String readAll(NativeSocket socket, Arena arena) {
        MemorySegment in = arena.allocate(64);
        long got = 0;
        long n;
        while ((n = socket.read(in.address() + got, in.byteSize() - got)) >= 0) {
            got += n;
            if (n == 0) {
                socket.await(dev.verbs4j.unix.FileDescriptor.POLLIN, -1, 10_000);
            }
        }
        return new String(in.asSlice(0, got).toArray(ValueLayout.JAVA_BYTE));
    }
}
