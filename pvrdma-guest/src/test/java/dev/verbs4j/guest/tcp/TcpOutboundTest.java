package dev.verbs4j.guest.tcp;

import dev.verbs4j.unix.testing.LoopbackSockets;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.unix.NativeSocket;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TCP channel's send queue on a real loopback socket whose buffers fill up. */
class TcpOutboundTest {

    @Test
    void queuedFramesLeaveInOrderAndEachActionRunsOnceItsLastByteIsOut() throws Exception {
        try (Stream s = new Stream()) {
            // more than loopback's socket buffers take, so the first write leaves much of it queued
            s.frame(1, 10, 16 << 20);
            s.outbound.mark(() -> s.ran.add("a"));
            assertFalse(s.outbound.writeTo(s.sender, s.done));
            assertTrue(s.done.isEmpty(), "frame a is not out yet");
            // more than the room left behind it: the buffer compacts or grows, keeping the order
            s.frame(2, 4, 80_000);
            s.outbound.mark(() -> s.ran.add("b"));
            s.frame(3, 7, 0);
            s.outbound.mark(null);
            s.frame(4, 5, 100);
            s.outbound.mark(() -> s.ran.add("d"));

            s.drainAndCheck(List.of("a", "b", "d"));
        }
    }

    @Test
    void lentBytesGoFirstAndACopyOfTheirRestKeepsTheOrderOnceTheirOwnerTakesThemBack() throws Exception {
        try (Stream s = new Stream()) {
            MemorySegment header = s.bytes(1, 7);
            MemorySegment lent = s.bytes(2, 16 << 20); // more than the socket takes
            s.outbound.lend(header, 0, header.byteSize(), lent.address(), lent.byteSize());
            s.outbound.mark(() -> s.ran.add("lent"));
            s.frame(3, 5, 1000); // copied behind the lent frame
            s.outbound.mark(() -> s.ran.add("copied"));
            assertFalse(s.outbound.writeTo(s.sender, s.done));
            assertTrue(s.outbound.holdsLent(), "the socket took only part of the lent bytes");
            s.outbound.copyLent();
            assertFalse(s.outbound.holdsLent());
            lent.fill((byte) 0x5A); // the owner reuses its memory: the queue has its own copy

            s.drainAndCheck(List.of("lent", "copied"));
        }
    }

    /** A send queue over a connected loopback pair, and the bytes and actions a test expects of it. */
    private static final class Stream implements AutoCloseable {
        final Arena arena = Arena.ofConfined();
        final LoopbackSockets sockets = LoopbackSockets.open();
        final NativeSocket sender = sockets.sender();
        final NativeSocket receiver = sockets.receiver();
        final TcpOutbound outbound = new TcpOutbound();
        final ByteArrayOutputStream expected = new ByteArrayOutputStream();
        final List<String> ran = new ArrayList<>();
        final WrittenFrames done = new WrittenFrames();

        Stream() throws Exception {}

        /** Queues a header of {@code headerBytes} and a payload of {@code payloadBytes}, of values tag and tag + 100. */
        void frame(int tag, int headerBytes, int payloadBytes) {
            for (int[] part : new int[][] {{tag, headerBytes}, {tag + 100, payloadBytes}}) {
                MemorySegment bytes = bytes(part[0], part[1]);
                outbound.add(bytes.address(), bytes.byteSize());
            }
        }

        /** {@code length} bytes of value {@code tag} in native memory, expected next on the wire. */
        MemorySegment bytes(int tag, int length) {
            MemorySegment s = arena.allocate(Math.max(1, length)).asSlice(0, length).fill((byte) tag);
            expected.writeBytes(s.toArray(ValueLayout.JAVA_BYTE));
            return s;
        }

        /** Writes what is queued while reading the other end; checks the bytes and the actions run. */
        void drainAndCheck(List<String> expectedActions) {
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            MemorySegment in = arena.allocate(256 * 1024);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (received.size() < expected.size() && System.nanoTime() < deadline) {
                if (!outbound.isEmpty()) {
                    outbound.writeTo(sender, done);
                    done.runAndClear(null); // actions only: no channel operation is marked here
                }
                long n = Math.max(0, receiver.read(in.address(), in.byteSize()));
                received.write(in.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), 0, (int) n);
            }
            assertTrue(outbound.isEmpty(), "everything was written");
            assertArrayEquals(expected.toByteArray(), received.toByteArray());
            assertEquals(expectedActions, ran);
        }

        @Override
        public void close() {
            sockets.close();
            arena.close();
        }
    }
}
