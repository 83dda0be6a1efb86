package dev.verbs4j.benchmarks.perf;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Waits after the warm-up until this JVM's JIT compilers have gone quiet. Compiler threads that
 * are still working when the timed iterations start take CPU from the measured loop: under
 * emulation a profile of a timed send_bw run showed the C1 threads of the two JVMs at 5-6 % of
 * all samples, iterations after the warm-up had ended.
 */
public final class JitQuiet {
    /** No compilation finished for this long: the queue is taken as drained. */
    private static final long QUIET_MILLIS = 1_000;
    private static final long GIVE_UP_MILLIS = 60_000;
    private static final long STEP_MILLIS = 100;
    private static final String DIAGNOSTIC_COMMANDS = "com.sun.management:type=DiagnosticCommand";

    private JitQuiet() {
    }

    /**
     * Milliseconds this JVM has spent compiling so far, or -1 when it does not say. Two equal
     * readings around some work mean the work compiled nothing (that took a measurable time).
     *
     * @return the JIT's total compilation time in milliseconds, or -1
     */
    public static long compilationMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /**
     * How many compilations this JVM has queued or running (what {@code jcmd PID Compiler.queue}
     * lists), or -1 when it does not say. Under emulation one C2 compile can take longer than a
     * second, so a compilation time that stood still for a while does not mean the queue is empty.
     *
     * @return compile tasks queued or in progress, or -1
     */
    public static int compilesPending() {
        try {
            Object queue = ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName(DIAGNOSTIC_COMMANDS),
                    "compilerQueue", new Object[] {null}, new String[] {String[].class.getName()});
            return tasksIn(String.valueOf(queue));
        } catch (JMException | RuntimeException e) {
            return -1;
        }
    }

    /** Counts the task lines of Compiler.queue's text: all but headings, "Empty" and blank lines. */
    static int tasksIn(String compilerQueue) {
        int tasks = 0;
        for (String line : compilerQueue.split("\\R")) {
            String l = line.strip();
            if (!l.isEmpty() && !l.equals("Empty") && !l.endsWith(":")) {
                tasks++;
            }
        }
        return tasks;
    }

    /**
     * Waits until this JVM has compiled nothing for a second.
     *
     * @return false when the compilers were still busy after a minute (the run goes on anyway)
     */
    public static boolean await() {
        return await(JitQuiet::compilationMillis);
    }

    private static boolean await(LongSupplier compiledMillis) {
        long compiled = compiledMillis.getAsLong();
        if (compiled < 0) {
            sleep(QUIET_MILLIS);
            return true;
        }
        long start = System.currentTimeMillis();
        long quietSince = start;
        while (true) {
            sleep(STEP_MILLIS);
            long now = System.currentTimeMillis();
            long total = compiledMillis.getAsLong();
            if (total != compiled) {
                compiled = total;
                quietSince = now;
            } else if (now - quietSince >= QUIET_MILLIS) {
                return true;
            }
            if (now - start >= GIVE_UP_MILLIS) {
                return false;
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the JIT to settle", e);
        }
    }
}
