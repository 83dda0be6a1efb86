package dev.verbs4j.benchmarks.perf;

import dev.verbs4j.examples.cli.Cli;
import java.io.PrintStream;

/**
 * {@code verbs4j perf TEST [OPTIONS] [SERVER]}: perftest's latency and bandwidth tests over
 * verbs4j, printing perftest's columns. Java server and Java client; the exchange format is our
 * own, so it does not talk to perftest binaries.
 */
public final class PerfCommand {
    private final PrintStream out;

    PerfCommand(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        Cli.exit(new PerfCommandLine(), args);
    }

    void run(PerfOptions requested) {
        if (requested.isServer()) {
            printWaiting();
        }
        try (OutOfBand oob = requested.isServer() ? OutOfBand.accept(requested.tcpPort())
                : OutOfBand.connect(requested.serverHost(), requested.tcpPort())) {
            PerfOptions options = agree(requested, oob);
            try (PerfSession session = new PerfSession(options)) {
                printParameters(session);
                Endpoint local = session.localEndpoint();
                Endpoint remote = oob.exchange(local);
                printAddresses(session, local, remote);
                session.connect(remote);
                oob.barrier();
                out.println(ReportFormat.RULE);
                out.println(ReportFormat.header(options.test()));
                new SizeLoop(session, oob, out).runAll();
                out.println(ReportFormat.RULE);
            }
        }
    }

    /** The client's sizes and iteration count rule; the server adopts them. */
    private static PerfOptions agree(PerfOptions requested, OutOfBand oob) {
        if (!requested.isServer()) {
            oob.send(new RunParameters(requested.test(), requested.sizes(), requested.iterations(), requested.warmup()));
            return requested;
        }
        RunParameters p = oob.receiveParameters();
        if (p.test() != requested.test()) {
            throw new IllegalStateException("the client runs " + p.test().cliName() + ", this server "
                    + requested.test().cliName());
        }
        return requested.withRun(p.sizes(), p.iterations(), p.warmup());
    }

    private void printWaiting() {
        out.println();
        out.println("************************************");
        out.println("* Waiting for client to connect... *");
        out.println("************************************");
    }

    private void printParameters(PerfSession s) {
        PerfOptions o = s.options;
        out.println(ReportFormat.title(o.test()));
        out.println(ReportFormat.parameter("Device", s.context.name()));
        out.println(ReportFormat.parameter("Connection type", "RC"));
        out.println(ReportFormat.parameter(o.isServer() ? "RX depth" : "TX depth",
                o.isServer() ? o.rxDepth() : o.txDepth()));
        if (!o.test().isLatency()) {
            out.println(ReportFormat.parameter("CQ Moderation", o.cqModeration()));
        }
        out.println(ReportFormat.parameter("Mtu", PerfSession.pathMtu(s.port.activeMtu()).bytes() + "[B]"));
        out.println(ReportFormat.parameter("Link type", s.port.linkLayerName()));
        out.println(ReportFormat.parameter("GID index", s.gid.index()));
        if (o.test() == PerfTest.READ_LAT || o.test() == PerfTest.READ_BW || o.test() == PerfTest.ATOMIC_LAT) {
            out.println(ReportFormat.parameter("Outstand reads", s.outstandingReads()));
        } else {
            out.println(ReportFormat.parameter("Max inline data", Math.max(0, o.inlineSize()) + "[B]"));
        }
        out.println(ReportFormat.parameter("Completions", o.events() ? "events" : "busy polling"));
        out.println(ReportFormat.parameter("Data ex. method", "Ethernet"));
        out.println(ReportFormat.RULE);
    }

    private void printAddresses(PerfSession s, Endpoint local, Endpoint remote) {
        boolean keys = s.options.test() != PerfTest.SEND_LAT && s.options.test() != PerfTest.SEND_BW;
        out.println(address("local", local, keys));
        out.println(address("remote", remote, keys));
        out.println(ReportFormat.RULE);
    }

    private static String address(String side, Endpoint e, boolean keys) {
        String line = String.format(" %s address: LID %04x QPN %#06x PSN %#08x", side, e.lid(), e.qpNumber(), e.psn());
        if (keys) {
            line += String.format(" RKey %#08x VAddr %#016x", e.rkey(), e.address());
        }
        return line + System.lineSeparator() + " GID: " + e.gidText();
    }
}
