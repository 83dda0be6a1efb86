package dev.verbs4j.benchmarks.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The client of {@link EchoServer}'s sink listener: one-way streams, written as fast as the
 * channel's writability allows, each timed until the sink answers that all of it arrived.
 */
final class StreamClient implements AutoCloseable {
    private final Channel channel;
    private final Streamer streamer = new Streamer();

    StreamClient(NettyTransport transport, EventLoopGroup group, SocketAddress sink) throws InterruptedException {
        channel = transport.client(group).handler(streamer).connect(sink).sync().channel();
    }

    /** Sends {@code total} bytes in writes of {@code chunk}'s size; the seconds until the sink had them all. */
    double stream(ByteBuf chunk, long total) throws Exception {
        CompletableFuture<Void> arrived = new CompletableFuture<>();
        long start = System.nanoTime();
        channel.eventLoop().execute(() -> streamer.start(chunk, total, arrived));
        arrived.get(10, TimeUnit.MINUTES);
        return (System.nanoTime() - start) / 1e9;
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }

    /** Writes while the channel is writable, and again when it becomes so. */
    private static final class Streamer extends ChannelInboundHandlerAdapter {
        private ChannelHandlerContext ctx;
        private ByteBuf chunk;
        private long left;
        private CompletableFuture<Void> arrived;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        void start(ByteBuf chunk, long total, CompletableFuture<Void> arrived) {
            this.chunk = chunk;
            this.left = total;
            this.arrived = arrived;
            ctx.write(ctx.alloc().buffer(Long.BYTES).writeLong(total), ctx.voidPromise());
            writeMore();
        }

        private void writeMore() {
            while (left > 0 && ctx.channel().isWritable()) {
                int n = (int) Math.min(left, chunk.readableBytes());
                ctx.write(chunk.retainedSlice(chunk.readerIndex(), n), ctx.voidPromise());
                left -= n;
            }
            ctx.flush();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (left > 0 && ctx.channel().isWritable()) {
                writeMore();
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ((ByteBuf) msg).release(); // the sink's one byte: all of the stream is in
            arrived.complete(null);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (arrived != null) {
                arrived.completeExceptionally(cause);
            }
        }
    }
}
