package dev.verbs4j.benchmarks.jmh;

import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.SendOpcode;
import dev.verbs4j.verbs.WorkCompletions;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A prepared RDMA WRITE posted on a loopback RC QP and polled to its completion: the whole
 * data-path round through verbs4j. Each op changes the length and wr_id, as a real sender
 * would, and should allocate nothing (GC profiler: 0 B/op).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class PostPollBenchmark {
    @Param({"8", "4096"})
    public int size;

    private LoopbackPair pair;
    private PreparedSend write;
    private WorkCompletions batch;
    private long sequence;

    @Setup(Level.Trial)
    public void open() {
        pair = new LoopbackPair(2 * 4096, 16);
        write = pair.initiator.prepareSend(1, 1)
                .opcode(0, SendOpcode.RDMA_WRITE)
                .flags(0, SendFlag.SIGNALED.bit())
                .sge(0, 0, pair.mr, 0, size)
                .remote(0, pair.mr.address() + 4096, pair.mr.rkey());
        batch = new WorkCompletions(16);
    }

    @Benchmark
    public long postAndPoll() {
        write.wrId(0, ++sequence).length(0, 0, size);
        write.post();
        int n;
        while ((n = pair.cq.poll(batch)) == 0) {
            Thread.onSpinWait();
        }
        if (!batch.isSuccess(0)) {
            throw new IllegalStateException("RDMA WRITE failed: " + batch.statusEnum(0));
        }
        return batch.wrId(n - 1);
    }

    @TearDown(Level.Trial)
    public void close() {
        batch.close();
        write.close();
        pair.close();
    }
}
