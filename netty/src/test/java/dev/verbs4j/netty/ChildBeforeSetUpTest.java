package dev.verbs4j.netty;

import dev.verbs4j.guest.TransportPreference;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server's child is active from its registration, as an accepted NIO socket is, while its
 * bootstrap exchange with the client still runs: what its initializer asks for at once (a write, a
 * read with auto-read off, a shutdownOutput) waits for the exchange and is done after it, none lost.
 */
class ChildBeforeSetUpTest extends ChannelPairTestBase {
    private static final long WAIT_SECONDS = 20;


    @Test
    void writesReadsAndAShutdownAskedForInTheInitializerHappenAfterTheExchange() throws Exception {
        CompletableFuture<Boolean> activeInInitializer = new CompletableFuture<>();
        CompletableFuture<String> serverGot = new CompletableFuture<>();
        server = new ServerBootstrap().group(group).channel(Verbs4jServerSocketChannel.class)
                .childOption(Verbs4jChannelOption.TRANSPORT, TransportPreference.TCP)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        activeInInitializer.complete(ch.isActive());
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                serverGot.complete(text((ByteBuf) msg));
                            }
                        });
                        ch.writeAndFlush(Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII));
                        ch.shutdownOutput();
                        ch.read();
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();

        CompletableFuture<String> clientGot = new CompletableFuture<>();
        CompletableFuture<Boolean> clientInputEnded = new CompletableFuture<>();
        client = new Bootstrap().group(group).channel(Verbs4jSocketChannel.class)
                .option(Verbs4jChannelOption.TRANSPORT, TransportPreference.TCP)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        clientGot.complete(text((ByteBuf) msg));
                    }

                    @Override
                    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                        if (event == ChannelInputShutdownEvent.INSTANCE) {
                            clientInputEnded.complete(true);
                        }
                    }
                })
                .connect(server.localAddress()).sync().channel();

        assertTrue(activeInInitializer.get(WAIT_SECONDS, TimeUnit.SECONDS), "a child is active when initialized");
        assertEquals("hello", clientGot.get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertTrue(clientInputEnded.get(WAIT_SECONDS, TimeUnit.SECONDS), "the child's shutdownOutput reached the client");
        client.writeAndFlush(Unpooled.copiedBuffer("ping", StandardCharsets.US_ASCII)).sync();
        assertEquals("ping", serverGot.get(WAIT_SECONDS, TimeUnit.SECONDS), "the read asked for in the initializer");
    }

    @Test
    void aChildClosedInItsInitializerLetsTheClientConnectAndSeeTheEnd() throws Exception {
        server = new ServerBootstrap().group(group).channel(Verbs4jServerSocketChannel.class)
                .childOption(Verbs4jChannelOption.TRANSPORT, TransportPreference.TCP)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.close();
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
        client = new Bootstrap().group(group).channel(Verbs4jSocketChannel.class)
                .option(Verbs4jChannelOption.TRANSPORT, TransportPreference.TCP)
                .handler(new ChannelInboundHandlerAdapter())
                .connect(server.localAddress()).sync().channel();
        assertTrue(client.closeFuture().await(WAIT_SECONDS, TimeUnit.SECONDS), "the client sees the child's close");
    }

    private static String text(ByteBuf buffer) {
        try {
            return buffer.toString(StandardCharsets.US_ASCII);
        } finally {
            buffer.release();
        }
    }
}
