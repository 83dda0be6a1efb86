package dev.verbs4j.benchmarks.jmh;

import dev.verbs4j.benchmarks.netty.EchoPair;
import dev.verbs4j.loop.CompletionMode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A Netty echo round trip of {@code size} bytes, NIO's against verbs4j's transport, for what it
 * allocates ({@code -prof gc}: bytes per round trip, both event loops and both pipelines counted).
 * The round trips run {@value #BATCH} at a time on the client's event loop, so the benchmark
 * thread's hand-off to it is spread over the batch. {@code transport}: nio, verbs4j-rdma (a
 * device, both ends on it) or verbs4j-tcp (any host).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class NettyEchoBenchmark {
    static final int BATCH = 100;

    @Param({"nio", "verbs4j-tcp"})
    public String transport;
    @Param({"adaptive"})
    public String mode;
    @Param({"64"})
    public int size;

    private EchoPair pair;
    private ByteBuf request;

    @Setup(Level.Trial)
    public void connect() throws Exception {
        pair = EchoPair.open(transport, CompletionMode.parse(mode),
                System.getenv().getOrDefault("RIG_ADDR", "127.0.0.1"));
        request = PooledByteBufAllocator.DEFAULT.directBuffer(size).writeZero(size);
    }

    @TearDown(Level.Trial)
    public void close() {
        request.release();
        pair.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void roundTrip() throws Exception {
        pair.roundTrips(request, BATCH);
    }
}
