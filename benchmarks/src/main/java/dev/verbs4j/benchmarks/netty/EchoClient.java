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
 * The client of {@link EchoServer}'s echo listener: round trips on its event loop, one after the
 * other, the next request written when the whole answer is in.
 */
final class EchoClient implements AutoCloseable {
    private final Channel channel;
    private final Pinger pinger = new Pinger();

    EchoClient(NettyTransport transport, EventLoopGroup group, SocketAddress server) throws InterruptedException {
        channel = transport.client(group).handler(pinger).connect(server).sync().channel();
    }

    /** The connection, to ask it which transport carries it. */
    Channel channel() {
        return channel;
    }

    /** {@code count} round trips of {@code request}'s bytes; each one's nanoseconds go to {@code nanos} (null: not kept). */
    void roundTrips(ByteBuf request, int count, long[] nanos) throws Exception {
        if (count == 0) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        channel.eventLoop().execute(() -> pinger.start(request, count, nanos, done));
        done.get(10, TimeUnit.MINUTES);
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }

    private static final class Pinger extends ChannelInboundHandlerAdapter {
        private ChannelHandlerContext ctx;
        private ByteBuf request;
        private int left, size, received, at;
        private long[] nanos;
        private long sentAt;
        private CompletableFuture<Void> done;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        void start(ByteBuf request, int count, long[] nanos, CompletableFuture<Void> done) {
            this.request = request;
            this.size = request.readableBytes();
            this.left = count;
            this.nanos = nanos;
            this.at = 0;
            this.done = done;
            send();
        }

        private void send() {
            received = 0;
            sentAt = System.nanoTime();
            ctx.writeAndFlush(request.retainedDuplicate(), ctx.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf answer = (ByteBuf) msg;
            received += answer.readableBytes();
            answer.release();
            if (received < size) {
                return;
            }
            if (nanos != null) {
                nanos[at++] = System.nanoTime() - sentAt;
            }
            if (--left > 0) {
                send();
            } else {
                done.complete(null);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (done != null) {
                done.completeExceptionally(cause);
            }
        }
    }
}
