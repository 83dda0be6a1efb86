package dev.verbs4j.benchmarks.perf;

import java.io.PrintStream;
import java.util.function.IntConsumer;

/**
 * Runs the test once per size between two barriers and prints one row per size. The side
 * that measured nothing (the target of reads, writes and atomics) prints the client's row,
 * as perftest's server does. With --warmup, each size is first run untimed, in rounds of short
 * passes, until a round compiles nothing, so the timed pass runs compiled code on CPUs the
 * compiler threads no longer share.
 */
final class SizeLoop {
    /** Iterations per warm-up pass: 10 000 warm-up iterations call each loop 400 times. */
    private static final int WARMUP_PASS = 25;
    private static final int MAX_WARMUP_ROUNDS = 8;

    private final PerfSession session;
    private final OutOfBand oob;
    private final PrintStream out;

    SizeLoop(PerfSession session, OutOfBand oob, PrintStream out) {
        this.session = session;
        this.oob = oob;
        this.out = out;
    }

    void runAll() {
        PerfOptions o = session.options;
        boolean client = !o.isServer();
        int iterations = o.iterations();
        long[] posted = new long[Math.max(iterations, Math.min(o.warmup(), WARMUP_PASS))]; // warm-up runs in passes
        long[] completed = new long[posted.length];
        // perftest's send_lat polls one completion at a time, its bandwidth tests up to 16
        int batch = o.test() == PerfTest.SEND_LAT ? 1 : 16;
        boolean ownReceiveCq = session.recvCq != session.sendCq;
        try (Completions sends = new Completions(session.sendCq, session.channel, batch);
                Completions receives = ownReceiveCq ? new Completions(session.recvCq, session.channel, batch) : null) {
            if (o.test().isLatency()) {
                try (LatencyRunner runner = new LatencyRunner(session, sends, receives, client)) {
                    for (int size : o.sizes()) {
                        warmUp(n -> runner.run(size, n, posted), iterations);
                        startSize();
                        boolean measured = runner.run(size, iterations, posted);
                        report(measured ? ReportFormat.row(LatencyReport.compute(size, posted, iterations,
                                o.test().rttFactor())) : null);
                    }
                }
            } else {
                try (BandwidthRunner runner = new BandwidthRunner(session, sends, receives, client)) {
                    for (int size : o.sizes()) {
                        warmUp(n -> runner.run(size, n, posted, completed), iterations);
                        startSize();
                        boolean measured = runner.run(size, iterations, posted, completed);
                        report(measured ? ReportFormat.row(bandwidth(size, iterations, posted, completed)) : null);
                    }
                }
            }
        }
    }

    /** Only the client has post times to find a peak in (the send_bw server has arrivals). */
    private BandwidthReport bandwidth(int size, int iterations, long[] posted, long[] completed) {
        boolean peak = !session.options.noPeak() && !session.options.isServer();
        return BandwidthReport.compute(size, iterations, posted, completed, peak);
    }

    /**
     * Warm-up rounds until a round compiles nothing on either side (at most
     * {@value #MAX_WARMUP_ROUNDS}). Each round is the warm-up count in short passes, because a
     * loop method must be called often to be compiled (C1 compiles a running loop only after
     * 60 000 back-edges), then a wait for the JIT to go quiet. Rounds repeat because the JIT
     * raises its thresholds while its queue is long: under emulation the send_bw client's CQ
     * poll (called once per pass) was still compiled inside the timed run after one round,
     * each compilation taking the client's CPU for about 10 ms. Both sides split the same count
     * the same way and agree on every repeat, so the pingpongs stay in step.
     *
     * <p>Each round ends with one pass as long as the timed run (at most the warm-up count):
     * short passes never fill the send queue or reach a moderated completion, and C2 compiles
     * branches it has never seen taken into traps. Those deoptimized inside the timed run (send_bw
     * 64 B under C2: BW peak 3.08 MB/s, average 2.26); now they do in the warm-up, and the round
     * that recompiles is repeated.
     */
    private void warmUp(IntConsumer pass, int timedLength) {
        int warmup = session.options.warmup();
        if (warmup == 0) {
            return;
        }
        boolean again;
        int rounds = 0;
        do {
            startSize();
            long compiledBefore = JitQuiet.compilationMillis();
            for (int done = 0; done < warmup; done += WARMUP_PASS) {
                pass.accept(Math.min(WARMUP_PASS, warmup - done));
            }
            pass.accept(Math.min(timedLength, warmup));
            settle();
            rounds++;
            boolean compiled = JitQuiet.compilationMillis() != compiledBefore;
            again = oob.eitherSays(compiled && rounds < MAX_WARMUP_ROUNDS);
        } while (again);
    }

    private void settle() {
        if (!JitQuiet.await()) {
            System.err.println("perf: the JIT was still compiling a minute after the warm-up; timing anyway");
        }
    }

    private void startSize() {
        session.clearBuffer();
        oob.barrier();
    }

    /** Client rows go to the server; a side without its own row prints the peer's. */
    private void report(String ownRow) {
        oob.barrier(); // the peer has finished this size too
        boolean client = !session.options.isServer();
        if (client) {
            oob.sendLine(ownRow);
            out.println(ownRow);
        } else {
            String clientRow = oob.receiveLine();
            out.println(ownRow != null ? ownRow : clientRow);
        }
    }
}
