package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.rig.Listeners;
import dev.verbs4j.rig.Peer;
import dev.verbs4j.rig.PeerProcess;
import dev.verbs4j.rig.PeerResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * The examples' side of the rig harness (dev.verbs4j.rig): the Java programs started through
 * bin/verbs4j or on a thread of the test JVM, rdma-core's C programs beside them, and the checks
 * of what the pingpongs print.
 */
final class InteropRig {
    private InteropRig() {}

    static Path launcher() {
        // surefire runs in the module directory, examples/
        Path launcher = Path.of("..", "bin", "verbs4j").toAbsolutePath().normalize();
        if (!Files.isExecutable(launcher)) {
            fail("bin/verbs4j not found at " + launcher);
        }
        try (var jars = Files.list(Path.of("target"))) {
            if (jars.noneMatch(p -> p.getFileName().toString().matches("verbs4j-examples-.*\\.jar")
                    && !p.toString().contains("-tests"))) {
                fail("examples is not packaged; first run: mvn -B -o -pl examples -am -DskipTests install");
            }
        } catch (IOException e) {
            fail("examples/target missing: build with mvn -B -o -pl examples -am -DskipTests install");
        }
        return launcher;
    }

    /** bin/verbs4j SUBCOMMAND ARGS... */
    static List<String> java(String subcommand, String... args) {
        List<String> cmd = new ArrayList<>(List.of(launcher().toString(), subcommand));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * bin/verbs4j SUBCOMMAND ARGS... run on a thread of this JVM: for the cases that check what
     * goes over the wire, which does not depend on how the JVM started. Each test class still
     * runs some cases through bin/verbs4j, so the launcher stays covered.
     */
    static Peer startInJvm(String subcommand, String role, String... args) {
        InJvmRun.Program program = switch (subcommand) {
            case "rc-pingpong" -> a -> PingpongProgram.execute(PingpongOptions.Flavor.RC, a);
            case "ud-pingpong" -> a -> PingpongProgram.execute(PingpongOptions.Flavor.UD, a);
            case "rping" -> Rping::execute;
            default -> throw new IllegalArgumentException("no in-JVM entry for " + subcommand);
        };
        return InJvmRun.start("jvm-" + role + " " + subcommand, program, args);
    }

    /**
     * One side of an interop run. kind "c": rdma-core's {@code cProgram}; "java": ours through
     * bin/verbs4j, in a JVM of its own; "jvm": ours on a thread of the test JVM.
     */
    static Peer start(String kind, String role, String cProgram, String subcommand, List<String> args)
            throws IOException {
        String[] a = args.toArray(String[]::new);
        return switch (kind) {
            case "c" -> start("c-" + role, c(cProgram, a));
            case "java" -> start("java-" + role, java(subcommand, a));
            case "jvm" -> startInJvm(subcommand, role, a);
            default -> throw new IllegalArgumentException("kind " + kind);
        };
    }

    static List<String> c(String program, String... args) {
        List<String> cmd = new ArrayList<>(List.of(program));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Starts {@code command} as a process named after it (without the launcher's path). */
    static Peer start(String name, List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        // bin/verbs4j keeps its AOT cache there: under emulation each JVM start is 1-2 s shorter with it
        pb.environment().putIfAbsent("VERBS4J_AOT_DIR", Path.of("target", "aot").toAbsolutePath().toString());
        return PeerProcess.start(name + " " + String.join(" ", command.subList(command.get(0).endsWith("verbs4j") ? 1 : 0,
                command.size())), pb);
    }

    /** Starts one side of a pair. */
    @FunctionalInterface
    interface Starter {
        Peer start() throws Exception;
    }

    /**
     * Starts the server, waits until it listens on TCP {@code port}, runs the client; both must
     * succeed. Returns the server's result, then the client's.
     */
    static List<PeerResult> tcpPair(int port, Starter server, Starter client) throws Exception {
        try (Peer s = server.start()) {
            Listeners.awaitTcpListen(port, s);
            try (Peer c = client.start()) {
                PeerResult cr = c.await(Peer.PROCESS_SECONDS);
                PeerResult sr = s.await(Peer.PROCESS_SECONDS);
                PeerResult.assertBothSucceeded(sr, cr);
                return List.of(sr, cr);
            }
        }
    }

    /**
     * The two summary lines every pingpong prints: the byte count must be size*iters*2, the iteration
     * count exact, the figures well-formed. Returns the two lines.
     */
    static List<String> assertSummary(PeerResult r, long size, long iters) {
        List<String> bytes = r.stdout().lines().filter(l -> PingpongReportTest.BYTES_LINE.matcher(l).matches()).toList();
        List<String> itersLines = r.stdout().lines().filter(l -> PingpongReportTest.ITERS_LINE.matcher(l).matches())
                .toList();
        assertEquals(1, bytes.size(), "one 'bytes in' line: " + r.describe());
        assertEquals(1, itersLines.size(), "one 'iters in' line: " + r.describe());
        Matcher b = PingpongReportTest.BYTES_LINE.matcher(bytes.getFirst());
        assertTrue(b.matches());
        assertEquals(size * iters * 2, Long.parseLong(b.group(1)), r.describe());
        Matcher i = PingpongReportTest.ITERS_LINE.matcher(itersLines.getFirst());
        assertTrue(i.matches());
        assertEquals(iters, Long.parseLong(i.group(1)), r.describe());
        return List.of(bytes.getFirst(), itersLines.getFirst());
    }

    /** Prints the figures of both sides of one run, so the CI log shows Java and C side by side. */
    static void report(String title, PeerResult a, List<String> aLines, PeerResult b, List<String> bLines) {
        System.out.println("[interop] " + title);
        System.out.println("[interop]   " + a.name() + "\n[interop]     " + String.join("\n[interop]     ", aLines));
        System.out.println("[interop]   " + b.name() + "\n[interop]     " + String.join("\n[interop]     ", bLines));
    }
}
