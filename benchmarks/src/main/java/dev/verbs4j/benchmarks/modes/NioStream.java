package dev.verbs4j.benchmarks.modes;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;

/**
 * The baseline: the same stream as {@link ChannelStream} over a plain blocking NIO socket pair on
 * loopback, each message a 4-byte length and the payload (the least framing a message stream
 * needs), read by a second thread into one reused buffer. No channel, no loop, no copies.
 */
final class NioStream {
    private NioStream() {}

    /**
     * Payload megabytes (10^6 bytes) per second. {@code noDelay}: the sender sets TCP_NODELAY, as
     * the TCP channel does (a message must not wait for Nagle); plain NIO leaves Nagle on, which
     * packs a stream of small writes into large segments.
     */
    static double megabytesPerSecond(int size, int count, boolean noDelay) throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(listener.getLocalAddress());
                 SocketChannel server = listener.accept()) {
                client.socket().setTcpNoDelay(noDelay);
                CompletableFuture<Void> received = CompletableFuture.runAsync(() -> receive(server, size, count));
                ByteBuffer header = ByteBuffer.allocateDirect(4);
                ByteBuffer payload = ByteBuffer.allocateDirect(size);
                ByteBuffer[] frame = {header, payload};
                ByteBuffer ack = ByteBuffer.allocate(1);
                long start = System.nanoTime();
                for (int i = 0; i < count; i++) {
                    header.clear().putInt(0, size);
                    payload.clear();
                    while (payload.hasRemaining()) {
                        client.write(frame);
                    }
                }
                readFully(client, ack);
                double mbps = (double) size * count / ((System.nanoTime() - start) / 1e9) / 1e6;
                received.join();
                return mbps;
            }
        }
    }

    /**
     * Round trips over the same socket pair: the client writes a frame and reads the echo, a
     * second thread reads each frame and writes it back. Median in microseconds, after
     * {@code count / 10} warm-up round trips.
     */
    static double roundTripP50Micros(int size, int count) throws Exception {
        return roundTrips(size, count).p50Micros();
    }

    /** As above: p50, p99 and mean. */
    static RoundTrips roundTrips(int size, int count) throws Exception {
        int warmup = count / 10;
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(listener.getLocalAddress());
                 SocketChannel server = listener.accept()) {
                client.socket().setTcpNoDelay(true);
                server.socket().setTcpNoDelay(true);
                CompletableFuture<Void> echoed = CompletableFuture.runAsync(() -> echo(server, size, warmup + count));
                ByteBuffer frame = ByteBuffer.allocateDirect(4 + size);
                long[] roundTrips = new long[count];
                for (int i = 0; i < warmup + count; i++) {
                    frame.clear().putInt(0, size);
                    long start = System.nanoTime();
                    while (frame.hasRemaining()) {
                        client.write(frame);
                    }
                    readFully(client, frame.clear());
                    if (i >= warmup) {
                        roundTrips[i - warmup] = System.nanoTime() - start;
                    }
                }
                echoed.join();
                return RoundTrips.of(roundTrips);
            }
        }
    }

    private static void echo(SocketChannel server, int size, int count) {
        ByteBuffer frame = ByteBuffer.allocateDirect(4 + size);
        try {
            for (int i = 0; i < count; i++) {
                readFully(server, frame.clear().limit(4));
                readFully(server, frame.limit(4 + frame.getInt(0)));
                frame.flip();
                while (frame.hasRemaining()) {
                    server.write(frame);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void receive(SocketChannel server, int size, int count) {
        ByteBuffer header = ByteBuffer.allocateDirect(4);
        ByteBuffer payload = ByteBuffer.allocateDirect(size);
        try {
            for (int i = 0; i < count; i++) {
                readFully(server, header.clear());
                readFully(server, payload.clear().limit(header.getInt(0)));
            }
            server.write(ByteBuffer.wrap(new byte[] {1}));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void readFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new EOFException("the peer closed early");
            }
        }
    }
}
