package dev.verbs4j.benchmarks.modes;

import java.time.Duration;

/**
 * CPU time of this whole process (user + system, every thread: the loop thread that spins or
 * blocks is what the completion modes differ in). Linux accounts it in clock ticks, 10 ms at
 * the usual 100 Hz, so runs are sized to last seconds.
 */
final class ProcessCpu {
    private ProcessCpu() {}

    static long nanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos)
                .orElseThrow(() -> new IllegalStateException("this OS does not report process CPU time"));
    }
}
