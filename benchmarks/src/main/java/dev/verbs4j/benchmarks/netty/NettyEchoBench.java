package dev.verbs4j.benchmarks.netty;

import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.netty.Verbs4jSocketChannel;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.Arrays;
import java.util.Locale;

/**
 * Netty echo round trips and a one-way stream over one transport, server and client in this JVM
 * on one event-loop thread each:
 * <pre>
 * java -cp ... dev.verbs4j.benchmarks.netty.NettyEchoBench TRANSPORT MODE ADDRESS ITERS STREAM_MIB
 *   TRANSPORT  nio | verbs4j-rdma | verbs4j-tcp      MODE  busy | event | adaptive (verbs4j's loops)
 * </pre>
 * Prints a line per row: {@code echo TRANSPORT SIZE p50_us p99_us} for 64 B and 4 KiB, and
 * {@code stream TRANSPORT 65536 MB_per_s} for 64 KiB writes, after a warm-up of the same work.
 */
public final class NettyEchoBench {
    private static final int[] SIZES = {64, 4096};
    private static final int STREAM_CHUNK = 64 * 1024;

    private NettyEchoBench() {}

    /**
     * Runs the rows.
     *
     * @param args as the class comment shows
     * @throws Exception when a connect or a round trip fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: TRANSPORT MODE ADDRESS ITERS STREAM_MIB");
        }
        NettyTransport transport = NettyTransport.parse(args[0], CompletionMode.parse(args[1]));
        String address = args[2];
        int iters = Integer.parseInt(args[3]);
        long streamBytes = Long.parseLong(args[4]) << 20;
        try (EchoPair pair = new EchoPair(transport, address, true)) {
            System.out.println("# " + transport.label() + " carried by " + carrier(pair));
            for (int size : SIZES) {
                ByteBuf request = PooledByteBufAllocator.DEFAULT.directBuffer(size).writeZero(size);
                pair.roundTrips(request, Math.max(100, iters / 2), null, 0); // warm-up
                long[] nanos = new long[iters];
                pair.roundTrips(request, iters, nanos, 0);
                request.release();
                Arrays.sort(nanos);
                System.out.printf(Locale.ROOT, "echo %s %d %.1f %.1f%n", transport.label(), size,
                        nanos[iters / 2] / 1e3, nanos[(int) (iters * 0.99)] / 1e3);
            }
        }
        try (EchoPair pair = new EchoPair(transport, address, false)) {
            ByteBuf chunk = PooledByteBufAllocator.DEFAULT.directBuffer(STREAM_CHUNK).writeZero(STREAM_CHUNK);
            pair.stream(chunk, Math.max(STREAM_CHUNK, streamBytes / 4)); // warm-up
            double seconds = pair.stream(chunk, streamBytes);
            chunk.release();
            System.out.printf(Locale.ROOT, "stream %s %d %.1f%n", transport.label(), STREAM_CHUNK,
                    streamBytes / seconds / 1e6);
        }
    }

    private static String carrier(EchoPair pair) {
        return pair.client() instanceof Verbs4jSocketChannel ours ? ours.transport().describe() : "kernel TCP";
    }
}
