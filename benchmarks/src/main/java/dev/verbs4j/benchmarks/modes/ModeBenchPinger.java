package dev.verbs4j.benchmarks.modes;

/**
 * The client's side of the mode benchmark, answered on the loop thread ({@link ModeBenchPing}) or
 * by an application thread ({@link ModeBenchAppThread}); {@link ModeBenchRounds} drives either.
 */
interface ModeBenchPinger {
    /**
     * Makes {@code count} round trips, one at a time.
     *
     * @param count how many
     * @return each one's nanoseconds, in order
     */
    long[] round(int count);

    /**
     * Asks the server how much CPU and JIT time its process has used so far.
     *
     * @return the server's answer
     */
    ModeBenchControl.Report query();
}
