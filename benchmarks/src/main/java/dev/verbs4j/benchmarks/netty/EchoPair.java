package dev.verbs4j.benchmarks.netty;

import dev.verbs4j.loop.CompletionMode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoopGroup;
import java.util.concurrent.TimeUnit;

/**
 * An {@link EchoServer} and an {@link EchoClient} in this JVM, each on an event loop of its own:
 * JMH's {@code -prof gc} then counts what both ends allocate per round trip.
 */
public final class EchoPair implements AutoCloseable {
    private final EchoServer server;
    private final EventLoopGroup clientGroup;
    private final EchoClient client;

    private EchoPair(NettyTransport transport, String address) throws InterruptedException {
        server = new EchoServer(transport, address);
        clientGroup = transport.newGroup(1);
        client = new EchoClient(transport, clientGroup, server.echoAddress());
    }

    /** An echo pair over {@code transport} ("nio", "verbs4j-rdma", "verbs4j-tcp") on {@code address}. */
    public static EchoPair open(String transport, CompletionMode mode, String address) throws InterruptedException {
        return new EchoPair(NettyTransport.parse(transport, mode), address);
    }

    /** {@code count} round trips of {@code request}, one after the other. */
    public void roundTrips(ByteBuf request, int count) throws Exception {
        client.roundTrips(request, count, null);
    }

    @Override
    public void close() {
        client.close();
        clientGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        server.close();
    }
}
