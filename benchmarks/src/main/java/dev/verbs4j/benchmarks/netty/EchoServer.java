package dev.verbs4j.benchmarks.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The server side of the Netty benchmarks, on an event loop group of one thread: an echo listener
 * (writes back what it reads, for {@link EchoClient}) and a sink listener (takes framed streams
 * and answers each, for {@link StreamClient}), both on ephemeral ports of one address.
 */
final class EchoServer implements AutoCloseable {
    private final EventLoopGroup group;
    private final Channel echo, sink;
    private final Semaphore closedChildren = new Semaphore(0);

    EchoServer(NettyTransport transport, String address) throws InterruptedException {
        group = transport.newGroup(1);
        echo = listen(transport, address, Echo::new);
        sink = listen(transport, address, Sink::new);
    }

    private Channel listen(NettyTransport transport, String address, Supplier<ChannelHandler> handler)
            throws InterruptedException {
        return transport.server(group).childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(handler.get());
                ch.closeFuture().addListener(f -> closedChildren.release());
            }
        }).bind(address, 0).sync().channel();
    }

    InetSocketAddress echoAddress() {
        return (InetSocketAddress) echo.localAddress();
    }

    InetSocketAddress sinkAddress() {
        return (InetSocketAddress) sink.localAddress();
    }

    /** Waits until {@code connections} accepted connections, echo or sink, have closed; false on time-out. */
    boolean awaitClosed(int connections, long timeout, TimeUnit unit) throws InterruptedException {
        return closedChildren.tryAcquire(connections, timeout, unit);
    }

    @Override
    public void close() {
        echo.close().syncUninterruptibly();
        sink.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Writes back what it reads, flushed once per read loop. */
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg, ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /**
     * One stream after the other: an 8-byte big-endian length, then that many bytes, answered by
     * one byte once the last is in (the client times the stream up to that answer).
     */
    private static final class Sink extends ChannelInboundHandlerAdapter {
        private int headerLeft = Long.BYTES;
        private long length, left;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf bytes = (ByteBuf) msg;
            try {
                while (bytes.isReadable()) {
                    if (headerLeft > 0) {
                        length = length << 8 | bytes.readUnsignedByte();
                        if (--headerLeft == 0) {
                            left = length;
                        }
                        continue;
                    }
                    int n = (int) Math.min(left, bytes.readableBytes());
                    bytes.skipBytes(n);
                    left -= n;
                    if (left == 0) {
                        ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte(1), ctx.voidPromise());
                        headerLeft = Long.BYTES;
                        length = 0;
                    }
                }
            } finally {
                bytes.release();
            }
        }
    }
}
