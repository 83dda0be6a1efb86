package dev.verbs4j.verbs;

import dev.verbs4j.rig.ResourceShow;
import dev.verbs4j.rig.RigEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The misuse fuzzer, run by {@link VerbsFuzzRigTest} in a child JVM so that a crash is seen
 * from outside: several threads run random sequences of steps ({@link FuzzWorker}) over shared
 * verbs objects until the wanted number of sequences is done. Prints the seed first (replay with
 * {@code -Dverbs4j.fuzz.seed=N} or {@code VERBS4J_FUZZ_SEED=N}), then one "key: value" summary.
 * Exit status 0 when every failure was an exception the API promises and the device's resource
 * counts are back where they started; 1 otherwise; 3 when the watchdog saw a sequence hang.
 */
public final class FuzzMain {
    static final int THREADS = 3;
    static final long HANG_NANOS = TimeUnit.SECONDS.toNanos(30);

    private FuzzMain() {}

    public static void main(String[] args) throws InterruptedException {
        long seed = seed();
        int sequences = Integer.getInteger("verbs4j.fuzz.sequences", 10_000);
        System.out.println("seed: " + seed);
        String device = RigEnvironment.current().device();
        Map<String, Integer> before = ResourceShow.counts(device);
        long start = System.nanoTime();
        FuzzPool pool = new FuzzPool();
        AtomicLong done = new AtomicLong();
        AtomicLong steps = new AtomicLong();
        AtomicLong refusals = new AtomicLong();
        AtomicLong errorCompletions = new AtomicLong();
        ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
        AtomicLongArray sequenceStart = new AtomicLongArray(THREADS);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int index = t;
            Random rnd = new Random(seed + t);
            threads.add(new Thread(() -> {
                FuzzWorker worker = new FuzzWorker(rnd, pool);
                long n;
                while ((n = done.getAndIncrement()) < sequences) {
                    sequenceStart.set(index, System.nanoTime());
                    int length = 1 + rnd.nextInt(8);
                    for (int i = 0; i < length; i++) {
                        steps.incrementAndGet();
                        try {
                            worker.step();
                        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException
                                 | UnsupportedOperationException | VerbsException promised) {
                            refusals.incrementAndGet();
                        } catch (Throwable e) {
                            unexpected.add("thread " + index + " sequence " + n + ": " + stackTrace(e));
                        }
                    }
                }
                sequenceStart.set(index, 0);
                errorCompletions.addAndGet(worker.errorCompletions);
                worker.close();
            }, "fuzz-" + t));
        }
        Thread watchdog = watchdog(sequenceStart);
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        watchdog.interrupt();
        List<String> left = pool.closeAll();
        Map<String, Integer> after = ResourceShow.counts(device);
        System.out.println("sequences: " + Math.min(done.get(), sequences));
        System.out.println("steps: " + steps.get());
        System.out.println("refused: " + refusals.get());
        System.out.println("error completions: " + errorCompletions.get());
        System.out.println("seconds: " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        System.out.println("resources: " + before + " -> " + after);
        System.out.println("not closed: " + left);
        unexpected.stream().limit(10).forEach(u -> System.out.println("unexpected: " + u));
        boolean ok = unexpected.isEmpty() && left.isEmpty() && before.equals(after);
        System.out.println("result: " + (ok ? "pass" : "FAIL (seed " + seed + ")"));
        System.exit(ok ? 0 : 1);
    }

    private static long seed() {
        String given = System.getProperty("verbs4j.fuzz.seed", System.getenv("VERBS4J_FUZZ_SEED"));
        return given != null && !given.isBlank() ? Long.parseLong(given.trim()) : new Random().nextLong();
    }

    /** Ends the JVM with status 3 and every thread's stack when one sequence runs longer than HANG_NANOS. */
    private static Thread watchdog(AtomicLongArray sequenceStart) {
        Thread w = new Thread(() -> {
            try {
                while (true) {
                    TimeUnit.SECONDS.sleep(1);
                    for (int t = 0; t < sequenceStart.length(); t++) {
                        long s = sequenceStart.get(t);
                        if (s != 0 && System.nanoTime() - s > HANG_NANOS) {
                            System.out.println("hang: fuzz-" + t + " spent over " + TimeUnit.NANOSECONDS.toSeconds(HANG_NANOS)
                                    + " s in one sequence");
                            Thread.getAllStackTraces().forEach((th, st) -> {
                                System.out.println(th.getName());
                                for (StackTraceElement e : st) {
                                    System.out.println("    at " + e);
                                }
                            });
                            System.out.flush();
                            Runtime.getRuntime().halt(3);
                        }
                    }
                }
            } catch (InterruptedException done) {
                // the run finished
            }
        }, "fuzz-watchdog");
        w.setDaemon(true);
        w.start();
        return w;
    }

    private static String stackTrace(Throwable e) {
        java.io.StringWriter w = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }
}
