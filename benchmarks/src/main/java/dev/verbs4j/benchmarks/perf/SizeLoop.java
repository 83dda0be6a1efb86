package dev.verbs4j.benchmarks.perf;

import java.io.PrintStream;

/**
 * Runs the test once per size between two barriers and prints one row per size. The side
 * that measured nothing (the target of reads, writes and atomics) prints the client's row,
 * as perftest's server does.
 */
final class SizeLoop {
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
        long[] posted = new long[iterations];
        long[] completed = new long[iterations];
        // perftest's send_lat polls one completion at a time, its bandwidth tests up to 16
        int batch = o.test() == PerfTest.SEND_LAT ? 1 : 16;
        boolean ownReceiveCq = session.recvCq != session.sendCq;
        try (Completions sends = new Completions(session.sendCq, session.channel, batch);
                Completions receives = ownReceiveCq ? new Completions(session.recvCq, session.channel, batch) : null) {
            if (o.test().isLatency()) {
                try (LatencyRunner runner = new LatencyRunner(session, sends, receives, client)) {
                    for (int size : o.sizes()) {
                        startSize();
                        boolean measured = runner.run(size, o.warmup(), iterations, posted);
                        report(measured ? ReportFormat.row(LatencyReport.compute(size, posted, iterations,
                                o.test().rttFactor())) : null);
                    }
                }
            } else {
                try (BandwidthRunner runner = new BandwidthRunner(session, sends, receives, client)) {
                    for (int size : o.sizes()) {
                        startSize();
                        boolean measured = runner.run(size, o.warmup(), iterations, posted, completed);
                        report(measured ? ReportFormat.row(bandwidth(size, iterations, posted, completed)) : null);
                    }
                }
            }
        }
    }

    private BandwidthReport bandwidth(int size, int iterations, long[] posted, long[] completed) {
        BandwidthReport r = BandwidthReport.compute(size, iterations, posted, completed);
        return session.options.noPeak() ? new BandwidthReport(r.bytes(), r.iterations(), 0, r.averageMBps(),
                r.messageRateMpps()) : r;
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
