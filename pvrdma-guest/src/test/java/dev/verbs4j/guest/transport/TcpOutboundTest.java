package dev.verbs4j.guest.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.linux.NativeSocket;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TCP channel's send queue on a real loopback socket whose buffers fill up. */
class TcpOutboundTest {

    @Test
    void queuedFramesLeaveInOrderAndEachActionRunsOnceItsLastByteIsOut() throws Exception {
        try (Arena arena = Arena.ofConfined();
             NativeSocket listener = NativeSocket.listen("127.0.0.1", 0, 4);
             NativeSocket sender = NativeSocket.connect("127.0.0.1", listener.localPort(), Duration.ofSeconds(10));
             NativeSocket receiver = acceptOne(listener)) {
            TcpOutbound outbound = new TcpOutbound();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            List<String> ran = new ArrayList<>();
            List<Runnable> done = new ArrayList<>();

            // more than loopback's socket buffers take, so the first write leaves much of it queued
            frame(outbound, arena, expected, 1, 10, 16 << 20);
            outbound.mark(() -> ran.add("a"));
            assertFalse(outbound.writeTo(sender, done));
            assertTrue(done.isEmpty(), "frame a is not out yet");
            // more than the room left behind it: the buffer compacts or grows, keeping the order
            frame(outbound, arena, expected, 2, 4, 80_000);
            outbound.mark(() -> ran.add("b"));
            frame(outbound, arena, expected, 3, 7, 0);
            outbound.mark(null);
            frame(outbound, arena, expected, 4, 5, 100);
            outbound.mark(() -> ran.add("d"));

            ByteArrayOutputStream received = new ByteArrayOutputStream();
            MemorySegment in = arena.allocate(256 * 1024);
            boolean empty = false;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (received.size() < expected.size() && System.nanoTime() < deadline) {
                if (!empty) {
                    empty = outbound.writeTo(sender, done);
                    done.forEach(Runnable::run);
                    done.clear();
                }
                long n = receiver.read(in.address(), in.byteSize());
                received.write(in.asSlice(0, Math.max(n, 0)).toArray(ValueLayout.JAVA_BYTE), 0, (int) Math.max(n, 0));
            }
            assertTrue(empty && outbound.isEmpty(), "everything was written");
            assertArrayEquals(expected.toByteArray(), received.toByteArray());
            assertEquals(List.of("a", "b", "d"), ran);
        }
    }

    static NativeSocket acceptOne(NativeSocket listener) {
        NativeSocket s;
        while ((s = listener.accept()) == null) {
            listener.await(dev.verbs4j.guest.linux.FileDescriptor.POLLIN, -1, 10_000);
        }
        return s;
    }

    /** A header of {@code headerBytes} and a payload of {@code payloadBytes}, all of value {@code tag}. */
    private static void frame(TcpOutbound outbound, Arena arena, ByteArrayOutputStream expected, int tag,
                              int headerBytes, int payloadBytes) {
        for (int[] part : new int[][] {{tag, headerBytes}, {tag + 100, payloadBytes}}) {
            byte[] bytes = new byte[part[1]];
            java.util.Arrays.fill(bytes, (byte) part[0]);
            expected.writeBytes(bytes);
            MemorySegment native_ = arena.allocate(Math.max(1, bytes.length));
            MemorySegment.copy(bytes, 0, native_, ValueLayout.JAVA_BYTE, 0, bytes.length);
            outbound.add(native_.address(), bytes.length);
        }
    }
}
