package dev.verbs4j.netty;

import dev.verbs4j.guest.TransportPreference;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelOutputShutdownException;
import io.netty.channel.socket.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * shutdownOutput right after writes that wait for the peer's credit (a receive window far smaller
 * than what is written): the end of the stream follows the last byte, as a socket's FIN follows its
 * data, and a write asked for after the shutdown fails instead of slipping in before it.
 */
class ShutdownAfterWritesTest extends ChannelPairTestBase {
    private static final int WINDOW = 16 * 1024;
    private static final int TOTAL = 1 << 20;
    private static final long WAIT_SECONDS = 30;


    @Test
    void theEndOfTheStreamFollowsEveryByteWrittenBeforeIt() throws Exception {
        CompletableFuture<Long> bytesAtTheEnd = new CompletableFuture<>();
        server = new ServerBootstrap().group(group).channel(Verbs4jServerSocketChannel.class)
                .childOption(Verbs4jChannelOption.TRANSPORT, TransportPreference.TCP)
                .childOption(ChannelOption.SO_RCVBUF, WINDOW)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            private long received;

                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ByteBuf buffer = (ByteBuf) msg;
                                for (int i = buffer.readerIndex(); i < buffer.writerIndex(); i++) {
                                    if (buffer.getByte(i) != (byte) (received + i - buffer.readerIndex())) {
                                        bytesAtTheEnd.completeExceptionally(new AssertionError("byte " + received));
                                    }
                                }
                                received += buffer.readableBytes();
                                buffer.release();
                            }

                            @Override
                            public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                                if (event == ChannelInputShutdownEvent.INSTANCE) {
                                    bytesAtTheEnd.complete(received);
                                }
                            }
                        });
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
        client = new Bootstrap().group(group).channel(Verbs4jSocketChannel.class)
                .option(Verbs4jChannelOption.TRANSPORT, TransportPreference.TCP)
                .handler(new ChannelInboundHandlerAdapter())
                .connect(server.localAddress()).sync().channel();
        Verbs4jSocketChannel ours = (Verbs4jSocketChannel) client;

        byte[] bytes = new byte[TOTAL];
        for (int i = 0; i < TOTAL; i++) {
            bytes[i] = (byte) i;
        }
        CompletableFuture<ChannelFuture[]> asked = new CompletableFuture<>();
        client.eventLoop().execute(() -> { // one task: nothing of the peer's credit comes in between
            ChannelFuture write = client.writeAndFlush(Unpooled.wrappedBuffer(bytes));
            ChannelFuture shutdown = ours.shutdownOutput();
            ChannelFuture late = client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
            asked.complete(new ChannelFuture[] {write, shutdown, late});
        });
        ChannelFuture[] futures = asked.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(TOTAL, bytesAtTheEnd.get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertTrue(futures[0].await(WAIT_SECONDS, TimeUnit.SECONDS) && futures[0].isSuccess(), "the write");
        assertTrue(futures[1].await(WAIT_SECONDS, TimeUnit.SECONDS) && futures[1].isSuccess(), "the shutdown");
        assertTrue(futures[2].await(WAIT_SECONDS, TimeUnit.SECONDS), "the late write");
        assertInstanceOf(ChannelOutputShutdownException.class, futures[2].cause());
    }
}
