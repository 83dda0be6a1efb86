package dev.verbs4j.benchmarks.jmh;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_context;
import dev.verbs4j.bindings.ibv_context_ops;
import dev.verbs4j.bindings.ibv_wc;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
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
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The floor under {@link EmptyPollBenchmark}: the provider's poll_cq on an empty CQ through the
 * leanest FFM call there is (a static final critical downcall handle with the function pointer
 * bound and the pointers passed as longs), on a CQ made through the generated bindings, with no
 * verbs4j code around it. emptyPoll minus rawPoll is what verbs4j itself adds (closed checks,
 * argument checks, provider dispatch); rawPoll minus the C baseline is the FFM call.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class RawPollBenchmark {
    private static final int BATCH = 16; // as EmptyPollBenchmark and empty_poll.c
    /** Set in setup, before {@link Bound} is first touched. */
    private static volatile MemorySegment pollCqFunction;

    private MemorySegment context;
    private MemorySegment cq;
    private Arena arena;
    private long cqAddress;
    private long completionsAddress;

    /** The handle as a static final, bound to this device's poll_cq: what the JIT can fold best. */
    private static final class Bound {
        static final MethodHandle POLL_CQ = Linker.nativeLinker().downcallHandle(pollCqFunction,
                FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG), Linker.Option.critical(false));
    }

    @Setup(Level.Trial)
    public void open() {
        context = openDevice(BenchmarkDevice.name());
        cq = Rdma.ibv_create_cq(context, BATCH, MemorySegment.NULL, MemorySegment.NULL, 0);
        if (cq.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("ibv_create_cq failed");
        }
        MemorySegment ops = ibv_context.ops(context.reinterpret(ibv_context.sizeof()));
        pollCqFunction = ibv_context_ops.poll_cq(ops);
        arena = Arena.ofShared();
        cqAddress = cq.address();
        completionsAddress = arena.allocate(ibv_wc.layout(), BATCH).address();
    }

    @Benchmark
    public int rawPoll() throws Throwable {
        return (int) Bound.POLL_CQ.invokeExact(cqAddress, BATCH, completionsAddress);
    }

    @TearDown(Level.Trial)
    public void close() {
        Rdma.ibv_destroy_cq(cq);
        Rdma.ibv_close_device(context);
        arena.close();
    }

    /** ibv_open_device on the named device, or the first one when name is null or empty. */
    private static MemorySegment openDevice(String name) {
        try (Arena local = Arena.ofConfined()) {
            MemorySegment count = local.allocate(JAVA_INT);
            MemorySegment list = Rdma.ibv_get_device_list(count);
            if (list.equals(MemorySegment.NULL)) {
                throw new IllegalStateException("ibv_get_device_list failed");
            }
            int n = count.get(JAVA_INT, 0);
            MemorySegment devices = list.reinterpret(ADDRESS.byteSize() * n);
            try {
                for (int i = 0; i < n; i++) {
                    MemorySegment device = devices.getAtIndex(ADDRESS, i);
                    String deviceName = Rdma.ibv_get_device_name(device).reinterpret(Long.MAX_VALUE).getString(0);
                    if (name == null || name.isEmpty() || name.equals(deviceName)) {
                        MemorySegment context = Rdma.ibv_open_device(device);
                        if (context.equals(MemorySegment.NULL)) {
                            throw new IllegalStateException("ibv_open_device " + deviceName + " failed");
                        }
                        return context;
                    }
                }
            } finally {
                Rdma.ibv_free_device_list(list);
            }
            throw new IllegalStateException("no RDMA device " + (name == null ? "" : name)
                    + "; run the benchmarks inside the soft-RoCE rig (ci/rig run ...)");
        }
    }
}
