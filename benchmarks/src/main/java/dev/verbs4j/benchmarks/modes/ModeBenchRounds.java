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
    /** No compilation finished in either JVM for this long: both queues are taken as drained. */
    private static final long QUIET_NANOS = 1_000_000_000L;
    private static final long STEP_MILLIS = 100;
    private static final long GIVE_UP_NANOS = 60_000_000_000L;

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
     * Waits until neither JVM has compiled anything for {@link #QUIET_NANOS} (a minute at most):
     * under emulation a compile takes a CPU from a spinning loop for milliseconds.
     */
    private static void settle(ModeBenchPinger pinger) {
        long start = System.nanoTime();
        long quietSince = start;
        long local = JitQuiet.compilationMillis();
        long remote = pinger.query().compiledMillis();
        while (System.nanoTime() - quietSince < QUIET_NANOS && System.nanoTime() - start < GIVE_UP_NANOS) {
            sleep();
            long localNow = JitQuiet.compilationMillis();
            long remoteNow = pinger.query().compiledMillis();
            if (localNow != local || remoteNow != remote) {
                local = localNow;
                remote = remoteNow;
                quietSince = System.nanoTime();
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(STEP_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the JITs settled", e);
        }
    }
}
