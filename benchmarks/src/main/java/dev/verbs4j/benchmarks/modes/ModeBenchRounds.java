package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.benchmarks.perf.JitQuiet;

/**
 * The mode benchmark's schedule on the client. The warm-up runs in rounds of the same code as
 * the measured round, CPU readings and control messages included, so the JIT has seen a round
 * begin and end before the one that counts (a branch first taken when measuring started made C2
 * throw away the compiled loop at that moment, and the measured round trips ran interpreted
 * until it recompiled). Then the round trips go on until both JVMs' compilers have been quiet
 * through a whole second of them, and the last round counts; a round during which they compiled
 * all the same is measured again (twice at most), and the row says how long they compiled in the
 * round it gives.
 */
final class ModeBenchRounds {
    /**
     * What one run measured: round-trip nanoseconds, the CPU nanoseconds of both processes and the
     * milliseconds both JVMs' compilers worked meanwhile.
     */
    record Result(long[] roundTrips, long clientCpuNanos, long serverCpuNanos, long compiledMillis) {}

    static final int WARMUP_ROUNDS = 4;
    /** How long round trips must run with neither JVM compiling, and how long that may take to come. */
    private static final long QUIET_NANOS = 1_000_000_000L, SETTLE_LIMIT_NANOS = 240_000_000_000L;
    /** Round trips per look at the clock while settling: a round's array is its only allocation. */
    private static final int SETTLE_CHUNK = 1000;
    /**
     * A measured round in which the JITs compiled longer than this is measured again, at most
     * {@link #REMEASURES} times: a quiet second does not rule out a late compile, and in the rig
     * one (2.2 s of compiling) doubled a 4000-round-trip round's p50 and its client's CPU.
     */
    private static final long COMPILED_MILLIS_TOLERATED = 200;
    private static final int REMEASURES = 2;

    private ModeBenchRounds() {}

    static Result run(ModeBenchPinger pinger, int warmup, int iterations) {
        int rounds = Math.min(WARMUP_ROUNDS, warmup);
        for (int r = 0; r < rounds; r++) {
            measure(pinger, warmup / rounds + (r < warmup % rounds ? 1 : 0));
        }
        if (!settle(pinger)) {
            System.err.printf("mode-bench: the JIT compilers were still busy after %d s of round trips; the measured"
                    + " round includes their work%n", SETTLE_LIMIT_NANOS / 1_000_000_000L);
        }
        Result result = measure(pinger, iterations);
        for (int again = 0; again < REMEASURES && result.compiledMillis() > COMPILED_MILLIS_TOLERATED; again++) {
            System.err.printf("mode-bench: the JIT compilers worked %d ms during the measured round; measuring it"
                    + " again%n", result.compiledMillis());
            result = measure(pinger, iterations);
        }
        return result;
    }

    /** One round with the CPU time of both processes around it, warm-up or not. */
    private static Result measure(ModeBenchPinger pinger, int count) {
        ModeBenchControl.Report serverAtStart = pinger.query();
        long compiledAtStart = JitQuiet.compilationMillis();
        long clientAtStart = ProcessCpu.nanos();
        long[] roundTrips = pinger.round(count);
        long clientCpu = ProcessCpu.nanos() - clientAtStart;
        long compiled = JitQuiet.compilationMillis() - compiledAtStart;
        ModeBenchControl.Report serverAtEnd = pinger.query();
        return new Result(roundTrips, clientCpu, serverAtEnd.cpuNanos() - serverAtStart.cpuNanos(),
                compiled + serverAtEnd.compiledMillis() - serverAtStart.compiledMillis());
    }

    /**
     * Makes round trips until a second of them passes in which neither JVM finished a compile and,
     * at its end, neither has one queued or running (four minutes at most; false then). Under
     * traffic, not idle: C2 alone queues a method only when its calls have run enough times. In the
     * rig, after a warm-up of 30 000 round trips and an idle wait for a quiet second, the
     * application thread's send path was compiled (and compiled again after uncommon traps) 75 to
     * 120 s into the JVM, during the measured round. One C2 compile can outlast a second under
     * emulation, hence the look at the queues.
     */
    private static boolean settle(ModeBenchPinger pinger) {
        long start = System.nanoTime();
        JitState before = JitState.of(pinger);
        while (System.nanoTime() - start < SETTLE_LIMIT_NANOS) {
            long roundStart = System.nanoTime();
            do {
                pinger.round(SETTLE_CHUNK);
            } while (System.nanoTime() - roundStart < QUIET_NANOS);
            JitState after = JitState.of(pinger);
            if (after.quietSince(before)) {
                return true;
            }
            before = after;
        }
        return false;
    }

    /** Both JVMs' compilers at one moment: milliseconds compiled so far, compiles queued or running now. */
    private record JitState(long compiledMillis, long compilesPending) {
        static JitState of(ModeBenchPinger pinger) {
            ModeBenchControl.Report server = pinger.query();
            return new JitState(JitQuiet.compilationMillis() + server.compiledMillis(),
                    Math.max(0, JitQuiet.compilesPending()) + Math.max(0, server.compilesPending()));
        }

        boolean quietSince(JitState earlier) {
            return compiledMillis == earlier.compiledMillis && compilesPending == 0;
        }
    }
}
