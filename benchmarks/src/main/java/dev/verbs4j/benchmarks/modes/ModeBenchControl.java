package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.benchmarks.perf.JitQuiet;
import dev.verbs4j.guest.Channel;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The mode benchmark's control messages, told from pings by their immediate data (pings carry
 * none): the client asks, the server answers with its process CPU time, the time its JIT has
 * spent compiling and how many compiles it has queued or running. Both sides take this branch
 * many times during the warm-up, so the JIT keeps it compiled and the measured round trips run
 * the code the warm-up left.
 */
final class ModeBenchControl {
    static final int QUERY = 0x7174_6331;
    static final int REPORT = 0x7174_6332;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    /**
     * What the server said: CPU nanoseconds of its process and milliseconds its JIT compiled, both
     * so far, and the compiles it has queued or running now (-1: unknown).
     */
    record Report(long cpuNanos, long compiledMillis, long compilesPending) {
        static Report of(MemorySegment buffer, long offset) {
            return new Report(buffer.get(LONG, offset), buffer.get(LONG, offset + 8), buffer.get(LONG, offset + 16));
        }
    }

    private ModeBenchControl() {}

    /** Server: answers a query (any thread; the report is small and rare, so it may allocate). */
    static void answer(Channel channel) {
        MemorySegment report = MemorySegment.ofArray(new long[3]);
        report.set(LONG, 0, ProcessCpu.nanos());
        report.set(LONG, 8, JitQuiet.compilationMillis());
        report.set(LONG, 16, JitQuiet.compilesPending());
        channel.send(report, REPORT);
    }

    /** Client: asks (the answer comes as a message with {@link #REPORT}). */
    static void ask(Channel channel) {
        channel.send(MemorySegment.NULL, QUERY);
    }
}
