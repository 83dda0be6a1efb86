package dev.verbs4j.netty;

import dev.verbs4j.guest.TransportPreference;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import java.security.MessageDigest;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The byte stream under a small receive window (16 KiB, smaller than a message): writes of every
 * kind and size, larger than the window too, to a reader that turns auto-read off and on. Every
 * byte arrives once and in order (a digest of both sides), the writer waits for the reader's
 * credit instead of overrunning it, and goes unwritable above its water mark meanwhile.
 */
class StreamWindowTest extends ChannelPairTestBase {
    private static final int WINDOW = 16 * 1024;


    TransportPreference transport() {
        return TransportPreference.TCP;
    }

    String device() {
        return null;
    }

    /** Bytes the test streams. */
    long total() {
        return 4L << 20;
    }

    @Test
    void everyByteArrivesOnceAndInOrderThroughASmallWindow() throws Exception {
        long total = total();
        Reader reader = new Reader(total);
        server = new ServerBootstrap().group(group).channel(Verbs4jServerSocketChannel.class)
                .childOption(Verbs4jChannelOption.TRANSPORT, transport())
                .childOption(Verbs4jChannelOption.DEVICE, device())
                .childOption(ChannelOption.SO_RCVBUF, WINDOW)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(reader);
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        client = new Bootstrap().group(group).channel(Verbs4jSocketChannel.class)
                .option(Verbs4jChannelOption.TRANSPORT, transport())
                .option(Verbs4jChannelOption.DEVICE, device())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
                .handler(new ChannelInboundHandlerAdapter())
                .connect(server.localAddress()).sync().channel();

        MessageDigest sent = MessageDigest.getInstance("SHA-256");
        Random random = new Random(7);
        AtomicBoolean wentUnwritable = new AtomicBoolean();
        long written = 0;
        while (written < total) {
            int size = random.nextInt(4) == 0 ? 1 + random.nextInt(200_000) : 1 + random.nextInt(3000);
            byte[] bytes = new byte[(int) Math.min(size, total - written)];
            random.nextBytes(bytes);
            sent.update(bytes);
            client.write(wrap(bytes, random.nextInt(3)));
            written += bytes.length;
            if (!client.isWritable()) {
                wentUnwritable.set(true);
                client.flush();
                awaitWritable(client);
            }
        }
        client.flush();
        assertArrayEquals(sent.digest(), reader.digest.get(120, TimeUnit.SECONDS));
        assertEquals(total, reader.received);
        assertTrue(wentUnwritable.get(), "the writer went unwritable while the reader's window was used up");
    }

    /** Heap, direct, or a composite of both. */
    private static ByteBuf wrap(byte[] bytes, int kind) {
        if (kind == 0) {
            return Unpooled.wrappedBuffer(bytes);
        }
        if (kind == 1 || bytes.length < 2) {
            return Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        }
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        int half = bytes.length / 2;
        composite.addComponent(true, Unpooled.wrappedBuffer(bytes, 0, half));
        composite.addComponent(true, Unpooled.directBuffer(bytes.length - half).writeBytes(bytes, half,
                bytes.length - half));
        return composite;
    }

    private static void awaitWritable(Channel channel) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!channel.isWritable()) {
            assertTrue(System.nanoTime() < deadline, "the writer stayed unwritable: no credit came back");
            Thread.sleep(1);
        }
    }

    /** Reads in bursts: auto-read off after each read loop, on again on another task. */
    private static final class Reader extends ChannelInboundHandlerAdapter {
        final CompletableFuture<byte[]> digest = new CompletableFuture<>();
        private final MessageDigest got;
        private final long total;
        long received;

        Reader(long total) throws Exception {
            this.total = total;
            this.got = MessageDigest.getInstance("SHA-256");
        }

        @Override
        public boolean isSharable() {
            return true;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf bytes = (ByteBuf) msg;
            byte[] copy = new byte[bytes.readableBytes()];
            bytes.readBytes(copy);
            bytes.release();
            got.update(copy);
            received += copy.length;
            if (received >= total) {
                digest.complete(got.digest());
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.channel().config().setAutoRead(false);
            ctx.executor().schedule(() -> ctx.channel().config().setAutoRead(true), 200, TimeUnit.MICROSECONDS);
        }
    }
}
