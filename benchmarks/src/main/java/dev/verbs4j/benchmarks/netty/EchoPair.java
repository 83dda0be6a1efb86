package dev.verbs4j.benchmarks.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A Netty echo server and a client connected to it in this JVM, each on an event loop group of
 * one thread, over one transport. Round trips run on the client's event loop, one after the other
 * ({@link #roundTrips}); a stream writes one way as fast as writability allows ({@link #stream}).
 */
final class EchoPair implements AutoCloseable {
    private final EventLoopGroup serverGroup, clientGroup;
    private final Channel listening, client;
    private final Pinger pinger = new Pinger();
    private final Sink sink = new Sink();

    EchoPair(NettyTransport transport, String address, boolean echo) throws Exception {
        serverGroup = transport.newGroup(1);
        clientGroup = transport.newGroup(1);
        listening = transport.server(serverGroup).childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(echo ? new Echo() : sink);
            }
        }).bind(address, 0).sync().channel();
        client = transport.client(clientGroup).handler(pinger).connect(listening.localAddress()).sync().channel();
    }

    /** The client's channel, to ask it which transport carries it. */
    Channel client() {
        return client;
    }

    /**
     * {@code count} round trips of {@code request}'s bytes; each one's nanoseconds go to
     * {@code nanos} from {@code at} on (null: not kept).
     */
    void roundTrips(ByteBuf request, int count, long[] nanos, int at) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        client.eventLoop().execute(() -> pinger.start(request, count, nanos, at, done));
        done.get(10, TimeUnit.MINUTES);
    }

    /** Writes {@code total} bytes in writes of {@code chunk}'s size; the seconds until all arrived. */
    double stream(ByteBuf chunk, long total) throws Exception {
        CompletableFuture<Void> arrived = sink.expect(total);
        long start = System.nanoTime();
        client.eventLoop().execute(() -> new Streamer(client, chunk, total).writeMore());
        arrived.get(10, TimeUnit.MINUTES);
        return (System.nanoTime() - start) / 1e9;
    }

    @Override
    public void close() {
        client.close().syncUninterruptibly();
        listening.close().syncUninterruptibly();
        clientGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        serverGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
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

    /** The client's side of the round trips: the next request goes when the whole answer is in. */
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

        void start(ByteBuf request, int count, long[] nanos, int at, CompletableFuture<Void> done) {
            this.request = request;
            this.size = request.readableBytes();
            this.left = count;
            this.nanos = nanos;
            this.at = at;
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
    }

    /** The server's side of a stream: counts bytes until the expected total is in. */
    private static final class Sink extends ChannelInboundHandlerAdapter {
        private long expected, received;
        private CompletableFuture<Void> arrived;

        @Override
        public boolean isSharable() {
            return true;
        }

        synchronized CompletableFuture<Void> expect(long total) {
            expected = total;
            received = 0;
            arrived = new CompletableFuture<>();
            return arrived;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf bytes = (ByteBuf) msg;
            long n = bytes.readableBytes();
            bytes.release();
            synchronized (this) {
                received += n;
                if (received >= expected) {
                    arrived.complete(null);
                }
            }
        }
    }

    /** Writes while the channel is writable, and again when it becomes so. */
    private static final class Streamer extends ChannelInboundHandlerAdapter {
        private final Channel channel;
        private final ByteBuf chunk;
        private long left;

        Streamer(Channel channel, ByteBuf chunk, long total) {
            this.channel = channel;
            this.chunk = chunk;
            this.left = total;
            channel.pipeline().addLast(this);
        }

        void writeMore() {
            while (left > 0 && channel.isWritable()) {
                int n = (int) Math.min(left, chunk.readableBytes());
                channel.write(chunk.retainedSlice(chunk.readerIndex(), n), channel.voidPromise());
                left -= n;
            }
            channel.flush();
            if (left == 0) {
                channel.pipeline().remove(this);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                writeMore();
            }
            ctx.fireChannelWritabilityChanged();
        }
    }
}
