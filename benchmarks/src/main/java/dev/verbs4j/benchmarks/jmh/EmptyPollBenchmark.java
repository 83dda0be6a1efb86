package dev.verbs4j.benchmarks.jmh;

import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.WorkCompletions;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One ibv_poll_cq on an empty CQ through verbs4j (a critical downcall through the provider's
 * poll_cq pointer). benchmarks/src/main/c/empty_poll.c measures the same call from C; the
 * ratio of the two is the FFM overhead. The GC profiler should report 0 B/op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class EmptyPollBenchmark {
    private Context context;
    private CompletionQueue cq;
    private WorkCompletions batch;

    @Setup(Level.Trial)
    public void open() {
        context = BenchmarkDevice.open();
        cq = context.createCompletionQueue(16);
        batch = new WorkCompletions(16); // the batch size the C baseline uses
    }

    @Benchmark
    public int emptyPoll() {
        return cq.poll(batch);
    }

    @TearDown(Level.Trial)
    public void close() {
        batch.close();
        cq.close();
        context.close();
    }
}
