package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TCP channel's send queue on a real loopback socket whose buffers fill up. */
class TcpOutboundTest {

    @Test
    void queuedFramesLeaveInOrderAndEachActionRunsOnceItsLastByteIsOut() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel sender = SocketChannel.open(listener.getLocalAddress());
                 SocketChannel receiver = listener.accept()) {
                sender.configureBlocking(false);
                receiver.configureBlocking(false);
                TcpOutbound outbound = new TcpOutbound();
                ByteArrayOutputStream expected = new ByteArrayOutputStream();
                List<String> ran = new ArrayList<>();
                List<Runnable> done = new ArrayList<>();

                // more than loopback's socket buffers take, so the first write leaves much of it queued
                outbound.add(frame(expected, 1, 10, 16 << 20), () -> ran.add("a"));
                assertFalse(outbound.writeTo(sender, done));
                assertTrue(done.isEmpty(), "frame a is not out yet");
                // more than the room left behind it: the buffer compacts or grows, keeping the order
                outbound.add(frame(expected, 2, 4, 80_000), () -> ran.add("b"));
                outbound.add(frame(expected, 3, 7, 0), null);
                outbound.add(frame(expected, 4, 5, 100), () -> ran.add("d"));

                ByteArrayOutputStream received = new ByteArrayOutputStream();
                ByteBuffer in = ByteBuffer.allocate(256 * 1024);
                boolean empty = false;
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (received.size() < expected.size() && System.nanoTime() < deadline) {
                    if (!empty) {
                        empty = outbound.writeTo(sender, done);
                        done.forEach(Runnable::run);
                        done.clear();
                    }
                    in.clear();
                    int n = receiver.read(in);
                    received.write(in.array(), 0, Math.max(n, 0));
                }
                assertTrue(empty && outbound.isEmpty(), "everything was written");
                assertArrayEquals(expected.toByteArray(), received.toByteArray());
                assertEquals(List.of("a", "b", "d"), ran);
            }
        }
    }

    /** A header of {@code headerBytes} and a payload of {@code payloadBytes}, all of value {@code tag}. */
    private static ByteBuffer[] frame(ByteArrayOutputStream expected, int tag, int headerBytes, int payloadBytes) {
        byte[] header = filled(tag, headerBytes);
        byte[] payload = filled(tag + 100, payloadBytes);
        expected.writeBytes(header);
        expected.writeBytes(payload);
        return new ByteBuffer[] {ByteBuffer.wrap(header), ByteBuffer.allocateDirect(payloadBytes).put(payload).flip()};
    }

    private static byte[] filled(int value, int length) {
        byte[] b = new byte[length];
        java.util.Arrays.fill(b, (byte) value);
        return b;
    }
}
