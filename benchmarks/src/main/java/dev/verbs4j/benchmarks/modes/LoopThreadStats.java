package dev.verbs4j.benchmarks.modes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One thread's CPU time and wake-ups as the kernel counts them: {@code /proc/self/task/TID/schedstat}
 * (nanoseconds on a CPU) and {@code status} (voluntary and involuntary context switches: every
 * time the thread blocked or was preempted, so every wake-up).
 */
record LoopThreadStats(long cpuNanos, long contextSwitches) {

    /** The calling thread's kernel id (from /proc/thread-self). */
    static int currentTid() {
        try {
            return Integer.parseInt(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/thread-self", e);
        }
    }

    static LoopThreadStats of(int tid) {
        Path task = Path.of("/proc/self/task", Integer.toString(tid));
        try {
            long cpu = Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split("\\s+")[0]);
            long switches = 0;
            for (String line : Files.readAllLines(task.resolve("status"))) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return new LoopThreadStats(cpu, switches);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + task, e);
        }
    }

    LoopThreadStats minus(LoopThreadStats earlier) {
        return new LoopThreadStats(cpuNanos - earlier.cpuNanos, contextSwitches - earlier.contextSwitches);
    }
}
