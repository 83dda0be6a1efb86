package dev.verbs4j.examples;

import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.PeerResult;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Java program run on a thread of the test JVM instead of in a JVM of its own: the same code,
 * the same options and output, without the seconds a JVM takes to start in the emulated rig. The
 * program's status is what its entry point returns, 1 when it throws, and 1 when it leaves a
 * non-daemon thread running: in a JVM of its own, that program would never exit.
 */
final class InJvmRun extends Peer {
    /** A program's entry point, returning its exit status. */
    @FunctionalInterface
    interface Program {
        int run(String[] args) throws Exception;
    }

    private final ThreadGroup group;
    private final Thread thread;
    private final RoutedOutput.Buffers buffers = RoutedOutput.Buffers.fresh();
    private volatile int exit = -1;

    private InJvmRun(String name, Program program, String[] args) {
        super(name);
        group = new ThreadGroup(name); // the threads the program starts join it
        thread = Thread.ofPlatform().group(group).daemon().name(name).unstarted(() -> {
            RoutedOutput.routeTo(buffers);
            try {
                exit = program.run(args);
            } catch (Throwable t) {
                t.printStackTrace();
                exit = 1;
            } finally {
                System.out.flush();
            }
        });
    }

    static Peer start(String name, Program program, String... args) {
        InJvmRun run = new InJvmRun(name + " " + String.join(" ", args), program, args);
        run.thread.start();
        return run;
    }

    @Override
    public PeerResult await(long seconds) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(seconds));
        String threads = "";
        if (thread.isAlive()) {
            threads = threadDump();
            kill();
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        boolean finished = !thread.isAlive();
        String leftRunning = finished ? nonDaemonThreadsLeft() : "";
        int status = !finished ? -1 : leftRunning.isEmpty() ? exit : 1;
        return new PeerResult(name(), status, !finished, buffers.stdout(), buffers.stderr() + threads + leftRunning);
    }

    /** Non-daemon threads of the program still alive a moment after it returned: they would keep its JVM up. */
    private String nonDaemonThreadsLeft() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            Thread[] threads = new Thread[group.activeCount() + 8];
            StringBuilder left = new StringBuilder();
            for (int i = 0, n = group.enumerate(threads); i < n; i++) {
                if (!threads[i].isDaemon() && threads[i].isAlive()) {
                    left.append(' ').append(threads[i].getName());
                }
            }
            if (left.isEmpty()) {
                return "";
            }
            if (System.nanoTime() > deadline) {
                return "\n--- the program returned but left non-daemon threads running:" + left + "\n";
            }
            Thread.sleep(20);
        }
    }

    private static String threadDump() {
        StringBuilder dump = new StringBuilder("\n--- threads of the test JVM running the hung program\n");
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            dump.append('"').append(e.getKey().getName()).append("\"\n");
            for (StackTraceElement frame : e.getValue()) {
                dump.append("    at ").append(frame).append('\n');
            }
        }
        return dump.toString();
    }

    /** A thread cannot be killed: it is interrupted, which ends the waits that heed interrupts. */
    @Override
    public void kill() {
        thread.interrupt();
    }

    @Override
    public boolean isAlive() {
        return thread.isAlive();
    }

    @Override
    public long pid() {
        return ProcessHandle.current().pid();
    }

    @Override
    public String stdoutSoFar() {
        return buffers.stdout();
    }
}
