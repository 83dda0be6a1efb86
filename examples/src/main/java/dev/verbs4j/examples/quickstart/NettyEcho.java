package dev.verbs4j.examples.quickstart;

import dev.verbs4j.netty.Verbs4jIoHandler;
import dev.verbs4j.netty.Verbs4jServerSocketChannel;
import dev.verbs4j.netty.Verbs4jSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Quick-start: a Netty echo server and client on verbs4j: the event loop group's I/O handler and
 * the two channel classes are the only change to a Netty program on NIO; the pipeline stays as
 * it was. The client prints which transport carries it (shared memory between two processes of
 * one user on one machine, else RDMA when both ends can, else TCP).
 *
 * <pre>
 * ... dev.verbs4j.examples.quickstart.NettyEcho server 18520
 * ... dev.verbs4j.examples.quickstart.NettyEcho client SERVER 18520
 * </pre>
 */
public final class NettyEcho {
    private static final long SECONDS = 60;

    private NettyEcho() {}

    /**
     * Runs one side.
     *
     * @param args the command line shown in the class comment
     * @throws Exception when binding, connecting or the echo fails: the program ends with the cause
     */
    public static void main(String[] args) throws Exception {
        boolean server = args.length == 2 && args[0].equals("server");
        if (!server && !(args.length == 3 && args[0].equals("client"))) {
            throw new IllegalArgumentException("usage: server PORT | client HOST PORT");
        }
        // README:begin netty
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, Verbs4jIoHandler.newFactory()); // was NioIoHandler
        try {
            if (server) {
                Channel listening = new ServerBootstrap().group(group)
                        .channel(Verbs4jServerSocketChannel.class)                 // was NioServerSocketChannel
                        .childHandler(new ChannelInitializer<SocketChannel>() {
                            @Override
                            protected void initChannel(SocketChannel ch) {
                                ch.pipeline().addLast(new Echo());
                            }
                        })
                        .bind(Integer.parseInt(args[1])).sync().channel();
                System.out.println("listening on " + listening.localAddress());
                listening.closeFuture().sync();
            } else {
                CompletableFuture<String> answer = new CompletableFuture<>();
                Channel ch = new Bootstrap().group(group)
                        .channel(Verbs4jSocketChannel.class)                       // was NioSocketChannel
                        .handler(new SimpleChannelInboundHandler<ByteBuf>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                                answer.complete(msg.toString(StandardCharsets.UTF_8));
                            }
                        })
                        .connect(args[1], Integer.parseInt(args[2])).sync().channel();
                System.out.println("transport: " + ((Verbs4jSocketChannel) ch).transport().describe());
                ch.writeAndFlush(Unpooled.copiedBuffer("ping", StandardCharsets.UTF_8));
                System.out.println("received: " + answer.get(SECONDS, TimeUnit.SECONDS));
                ch.close().sync();
            }
        } finally {
            group.shutdownGracefully();
        }
        // README:end
    }

    /** Writes back what it reads; the server serves one client, as the other quick-starts do. */
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ctx.channel().parent().close(); // the client is done: so is the server
        }
    }
}
