package dev.verbs4j.examples;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.cli.CommonOptions;
import dev.verbs4j.guest.doctor.Doctor;
import dev.verbs4j.guest.doctor.DoctorReport;
import dev.verbs4j.guest.doctor.PeerPath;
import dev.verbs4j.guest.probe.SysfsRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/verbs4j doctor}: is this guest ready for RDMA, which transport would it use, and to a given peer. */
@Command(name = "doctor", description = {"is this guest ready for RDMA; which transport it would use, and why",
        "Checks this machine for what RDMA needs (64-bit Linux, kernel, rdma-core, devices and drivers, port "
                + "state, GIDs, memlock limit, RDMA network namespace mode, PVRDMA adapter, driver and limits) and "
                + "says which transport a channel would use: rdma (device, GID index) or tcp (why).",
        "With --peer it asks a verbs4j channel server there which path a channel takes and why: shm (both "
                + "processes on one kernel, in one network namespace, under one user, as only the peer can state), "
                + "rdma or tcp; it opens one channel and closes it. When nothing answers it says what a peer would "
                + "need. The peer's answer leaves the exit status alone."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:nothing blocks (also when TCP is the outcome because there is no RDMA device)",
                "1:a check FAILs (an RDMA device is present but unusable, or this is not 64-bit Linux)",
                "2:usage error"},
        footer = "")
public final class DoctorCommand implements Callable<Integer> {
    /** The port {@code --peer HOST} asks at: bin/verbs4j pingpong's default. */
    static final int DEFAULT_PEER_PORT = PingpongCommand.DEFAULT_PORT;

    @Option(names = "--json", description = "machine-readable report on stdout")
    boolean json;

    @Option(names = "--sysfs", paramLabel = "DIR", description = "read a recorded sysfs tree instead of /sys")
    Path sysfs;

    @Option(names = "--peer", paramLabel = "HOST[:PORT]",
            description = "ask the channel server at HOST (port " + DEFAULT_PEER_PORT + ", bin/verbs4j pingpong's, "
                    + "unless given) which path a channel takes")
    String peer;

    @Option(names = "--peer-timeout", paramLabel = "SECONDS",
            description = "how long the connect and the bootstrap exchange with --peer may take (default 10)")
    int peerTimeout = 10;

    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    private DoctorCommand() {}

    public static void main(String[] args) {
        Cli.exit(new DoctorCommand(), args);
    }

    @Override
    public Integer call() {
        if (sysfs != null && !Files.isDirectory(sysfs)) {
            throw Cli.usageError(spec, "--sysfs " + sysfs + " is not a directory");
        }
        String[] hostPort = peer == null ? null : hostAndPort(peer);
        if (peerTimeout < 1) {
            throw Cli.usageError(spec, "--peer-timeout must be at least 1 second, got " + peerTimeout);
        }
        common.applyVerbosity();
        DoctorReport report = Doctor.run(sysfs == null ? SysfsRoot.system() : SysfsRoot.at(sysfs));
        if (hostPort != null) {
            report = report.withPeer(PeerPath.ask(hostPort[0], Integer.parseInt(hostPort[1]),
                    Duration.ofSeconds(peerTimeout), report.verdict()));
        }
        System.out.print(json ? report.toJson() + "\n" : report.toText());
        return report.exitCode();
    }

    /** HOST, HOST:PORT or [IPV6]:PORT; a usage error for anything else. */
    String[] hostAndPort(String text) {
        String host = text, port = Integer.toString(DEFAULT_PEER_PORT);
        int close = text.indexOf(']');
        if (text.startsWith("[") && close > 0) {
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw Cli.usageError(spec, "--peer " + text + ": expected [ADDRESS]:PORT");
                }
                port = rest.substring(1);
            }
        } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
            host = text.substring(0, text.indexOf(':'));
            port = text.substring(text.indexOf(':') + 1);
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (host.isEmpty() || p < 1 || p > 65535) {
            throw Cli.usageError(spec, "--peer " + text + ": expected HOST[:PORT] with a port from 1 to 65535");
        }
        return new String[] {host, Integer.toString(p)};
    }
}
