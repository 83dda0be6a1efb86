package dev.verbs4j.unix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** memfd segments and abstract unix sockets that carry fds, on this host's kernel. */
class SharedMemoryTest {

    @Test
    void aSealedMemfdKeepsItsSizeAndSharesItsBytesAcrossMappings() {
        int fd = SharedMemory.createSealed("shared-memory-test", 8192);
        try (Arena a = Arena.ofConfined(); Arena b = Arena.ofConfined()) {
            assertEquals(8192, SharedMemory.size(fd));
            assertEquals(SharedMemory.SIZE_SEALS, SharedMemory.seals(fd) & SharedMemory.SIZE_SEALS);
            MemorySegment one = SharedMemory.map(fd, 8192, a), two = SharedMemory.map(fd, 8192, b);
            one.set(ValueLayout.JAVA_LONG, 4096, 0x1234_5678L);
            assertEquals(0x1234_5678L, two.get(ValueLayout.JAVA_LONG, 4096));
        } finally {
            FileDescriptor.close(fd);
        }
    }

    @Test
    void anUnmappedSegmentFailsInJavaRatherThanFaulting() {
        int fd = SharedMemory.createSealed("shared-memory-test", 4096);
        Arena arena = Arena.ofShared();
        MemorySegment memory = SharedMemory.map(fd, 4096, arena);
        FileDescriptor.close(fd);
        arena.close();
        assertThrows(IllegalStateException.class, () -> memory.get(ValueLayout.JAVA_LONG, 0));
    }

    @Test
    void fdsAndCredentialsTravelOverAnAbstractUnixSocket() throws Exception {
        String name = "shared-memory-test-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        int memfd = SharedMemory.createSealed("shared-memory-test", 4096);
        try (UnixSocket listener = UnixSocket.listenAbstract(name);
             UnixSocket client = UnixSocket.connectAbstract(name, Duration.ofSeconds(5));
             UnixSocket server = listener.accept(Duration.ofSeconds(5))) {
            assertEquals(ProcessHandle.current().pid(), server.peerCredentials().pid());
            client.send(new byte[] {7, 8}, memfd);
            UnixSocket.Received got = server.receive(16, Duration.ofSeconds(5));
            assertArrayEquals(new byte[] {7, 8}, got.data());
            assertEquals(1, got.fds().length);
            assertEquals(4096, SharedMemory.size(got.fds()[0]));
            FileDescriptor.close(got.fds()[0]);
            assertEquals(0, server.discard(), "nothing more arrived");
            client.close();
            assertEquals(-1, server.discard(), "the peer's close is the end of the stream");
        } finally {
            FileDescriptor.close(memfd);
        }
    }

    @Test
    void nobodyListeningIsARefusedConnect() {
        LinuxCallException e = assertThrows(LinuxCallException.class,
                () -> UnixSocket.connectAbstract("shared-memory-test-nobody-" + System.nanoTime(), Duration.ofSeconds(1)));
        assertEquals(Errno.ECONNREFUSED, e.errno());
    }
}
