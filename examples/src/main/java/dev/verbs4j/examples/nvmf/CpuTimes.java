package dev.verbs4j.examples.nvmf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine's CPU time so far, from Linux's /proc/stat: busy (everything but idle and iowait)
 * and total, summed over every CPU, in clock ticks. Two readings around a run give what the whole
 * machine spent on it: this process, the kernel's softirqs, and on a one-machine rig the target too.
 *
 * @param busyTicks  user, nice, system, irq, softirq and steal time
 * @param totalTicks busy plus idle and iowait
 * @param cpus       the number of CPUs (the cpuN lines)
 * @param readAt     System.nanoTime of the reading
 */
record CpuTimes(long busyTicks, long totalTicks, int cpus, long readAt) {
    private static final Path PROC_STAT = Path.of("/proc/stat");
    private static final int IDLE = 3;
    private static final int IOWAIT = 4;
    private static final int COUNTED = 8; // user..steal; guest time is already inside user

    static CpuTimes read() {
        List<String> lines;
        try {
            lines = Files.readAllLines(PROC_STAT);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + PROC_STAT + " (Linux only)", e);
        }
        String[] f = lines.getFirst().trim().split("\\s+"); // "cpu  user nice system idle iowait ..."
        long total = 0;
        long waiting = 0;
        for (int i = 0; i < COUNTED && i + 1 < f.length; i++) {
            long ticks = Long.parseLong(f[i + 1]);
            total += ticks;
            if (i == IDLE || i == IOWAIT) {
                waiting += ticks;
            }
        }
        int cpus = (int) lines.stream().filter(l -> l.matches("cpu\\d+ .*")).count();
        return new CpuTimes(total - waiting, total, cpus, System.nanoTime());
    }

    /** The busy fraction of all CPUs between {@code earlier} and this reading, 0..1. */
    double busySince(CpuTimes earlier) {
        long total = totalTicks - earlier.totalTicks;
        return total == 0 ? 0 : (double) (busyTicks - earlier.busyTicks) / total;
    }

    /** Busy CPU microseconds (all CPUs) per I/O between {@code earlier} and this reading. */
    double microsPerIo(CpuTimes earlier, long ios) {
        double wallMicros = (readAt - earlier.readAt) / 1e3;
        return ios == 0 ? Double.NaN : busySince(earlier) * cpus * wallMicros / ios;
    }
}
