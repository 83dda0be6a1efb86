package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.benchmarks.perf.JitQuiet;

/**
 * The mode benchmark's schedule on the client. The warm-up runs in rounds of the same code as
 * the measured round, CPU readings and control messages included, so the JIT has seen a round
 * begin and end before the one that counts (a branch first taken when measuring started made C2
 * throw away the compiled loop at that moment, and the measured round trips ran interpreted
 * until it recompiled). Then both JVMs' compilers are let finish, and the last round counts.
 */
final class ModeBenchRounds {
    /** What one run measured: round-trip nanoseconds and the CPU nanoseconds of both processes. */
    record Result(long[] roundTrips, long clientCpuNanos, long serverCpuNanos) {}

    static final int WARMUP_ROUNDS = 4;

    private ModeBenchRounds() {}

    static Result run(ModeBenchPinger pinger, int warmup, int iterations) {
        int rounds = Math.min(WARMUP_ROUNDS, warmup);
        for (int r = 0; r < rounds; r++) {
            measure(pinger, warmup / rounds + (r < warmup % rounds ? 1 : 0));
        }
        settle(pinger);
        return measure(pinger, iterations);
    }

    /** One round with the CPU time of both processes around it, warm-up or not. */
    private static Result measure(ModeBenchPinger pinger, int count) {
        ModeBenchControl.Report serverAtStart = pinger.query();
        long clientAtStart = ProcessCpu.nanos();
        long[] roundTrips = pinger.round(count);
        long clientCpu = ProcessCpu.nanos() - clientAtStart;
        ModeBenchControl.Report serverAtEnd = pinger.query();
        return new Result(roundTrips, clientCpu, serverAtEnd.cpuNanos() - serverAtStart.cpuNanos());
    }

    /**
     * Waits until neither JVM has compiled anything for a second (a minute at most): under
     * emulation a compile takes a CPU from a spinning loop for milliseconds.
     */
    private static void settle(ModeBenchPinger pinger) {
        JitQuiet.await(() -> JitQuiet.compilationMillis() + pinger.query().compiledMillis());
    }
}
