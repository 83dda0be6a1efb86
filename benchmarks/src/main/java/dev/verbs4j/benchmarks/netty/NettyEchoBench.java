package dev.verbs4j.benchmarks.netty;

import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.netty.Verbs4jSocketChannel;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Netty echo round trips and a one-way stream over one transport, server and client each a JVM
 * of its own with one event-loop thread (benchmarks/netty.sh runs them, pinned to a CPU each):
 * <pre>
 * java -cp ... dev.verbs4j.benchmarks.netty.NettyEchoBench server TRANSPORT MODE ADDRESS
 * java -cp ... dev.verbs4j.benchmarks.netty.NettyEchoBench client TRANSPORT MODE ADDRESS ECHO_PORT SINK_PORT
 *     ITERS WARMUP STREAM_MIB
 *   TRANSPORT  nio | verbs4j-rdma | verbs4j-tcp      MODE  busy | event | adaptive (verbs4j's loops)
 * </pre>
 * The server prints {@code listening ADDRESS ECHO_PORT SINK_PORT} and exits once the client's two
 * connections have closed. The client prints a line per row: {@code echo TRANSPORT SIZE p50_us
 * p99_us} for 64 B and 4 KiB (ITERS round trips after WARMUP), and {@code stream TRANSPORT 65536
 * MB_per_s} for STREAM_MIB MiB of 64 KiB writes (after as many unmeasured).
 */
public final class NettyEchoBench {
    private static final int[] SIZES = {64, 4096};
    private static final int STREAM_CHUNK = 64 * 1024;

    private NettyEchoBench() {}

    /**
     * Runs one side.
     *
     * @param args as the class comment shows
     * @throws Exception when a bind, a connect or a round trip fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("server")) {
            serve(NettyTransport.parse(args[1], CompletionMode.parse(args[2])), args[3]);
        } else if (args.length == 9 && args[0].equals("client")) {
            NettyTransport transport = NettyTransport.parse(args[1], CompletionMode.parse(args[2]));
            client(transport, new InetSocketAddress(args[3], Integer.parseInt(args[4])),
                    new InetSocketAddress(args[3], Integer.parseInt(args[5])), Integer.parseInt(args[6]),
                    Integer.parseInt(args[7]), Long.parseLong(args[8]) << 20);
        } else {
            throw new IllegalArgumentException("usage: server TRANSPORT MODE ADDRESS | client TRANSPORT MODE ADDRESS"
                    + " ECHO_PORT SINK_PORT ITERS WARMUP STREAM_MIB");
        }
    }

    private static void serve(NettyTransport transport, String address) throws InterruptedException {
        try (EchoServer server = new EchoServer(transport, address)) {
            BenchOutput.listening(address, server.echoAddress().getPort(), server.sinkAddress().getPort());
            if (!server.awaitClosed(2, 1, TimeUnit.HOURS)) {
                throw new IllegalStateException("the client's echo and stream connections did not both close in an hour");
            }
        }
    }

    private static void client(NettyTransport transport, InetSocketAddress echo, InetSocketAddress sink, int iters,
            int warmup, long streamBytes) throws Exception {
        EventLoopGroup group = transport.newGroup(1);
        try {
            try (EchoClient client = new EchoClient(transport, group, echo)) {
                System.out.println("# " + transport.label() + " carried by " + carrier(client));
                for (int size : SIZES) {
                    ByteBuf request = PooledByteBufAllocator.DEFAULT.directBuffer(size).writeZero(size);
                    client.roundTrips(request, warmup, null);
                    long[] nanos = new long[iters];
                    client.roundTrips(request, iters, nanos);
                    request.release();
                    System.out.printf(Locale.ROOT, "echo %s %d %s%n", transport.label(), size, BenchOutput.p50p99(nanos));
                }
            }
            try (StreamClient client = new StreamClient(transport, group, sink)) {
                ByteBuf chunk = PooledByteBufAllocator.DEFAULT.directBuffer(STREAM_CHUNK).writeZero(STREAM_CHUNK);
                client.stream(chunk, streamBytes); // warm-up
                double seconds = client.stream(chunk, streamBytes);
                chunk.release();
                System.out.printf(Locale.ROOT, "stream %s %d %.1f%n", transport.label(), STREAM_CHUNK,
                        streamBytes / seconds / 1e6);
            }
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static String carrier(EchoClient client) {
        return client.channel() instanceof Verbs4jSocketChannel ours ? ours.transport().describe() : "kernel TCP";
    }
}
