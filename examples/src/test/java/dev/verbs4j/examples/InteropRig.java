package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the Java programs (through bin/verbs4j) and rdma-core's C programs side by side in the
 * soft-RoCE rig, with every wait bounded. The rig exports RIG_DEVICE, RIG_GID_INDEX, RIG_ADDR.
 */
final class InteropRig {
    /** Everything in the rig runs under TCG emulation, ~10x slower than native; JVM start-up included. */
    static final long PROCESS_SECONDS = 150;
    private static final AtomicInteger NEXT_PORT = new AtomicInteger(18600 + (int) (ProcessHandle.current().pid() % 50) * 20);

    private InteropRig() {}

    static String device() {
        return env("RIG_DEVICE", "rxe0");
    }

    static String gidIndex() {
        return env("RIG_GID_INDEX", null);
    }

    static String address() {
        return env("RIG_ADDR", null);
    }

    static String env(String name, String fallback) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            if (fallback == null) {
                fail(name + " is not set: interop tests run inside the soft-RoCE rig (ci/rig run mvn -o -P rig ...)");
            }
            return fallback;
        }
        return v.trim();
    }

    /** A fresh TCP port per run, so one test's TIME_WAIT never meets the next test. */
    static int nextPort() {
        return NEXT_PORT.getAndIncrement();
    }

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
    static Run startInJvm(String subcommand, String role, String... args) {
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
    static Run start(String kind, String role, String cProgram, String subcommand, List<String> args)
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

    /** A started program: a process, or a Java program on a thread of this JVM ({@link InJvmRun}). */
    abstract static class Run {
        final String name;

        Run(String name) {
            this.name = name;
        }

        /** Waits at most {@code seconds}; ends the program when it takes longer. */
        abstract Result await(long seconds) throws Exception;

        abstract void kill();

        abstract boolean isAlive();

        /** The process whose /proc/PID/net shows the program's sockets. */
        abstract long pid();

        abstract String stdoutSoFar();
    }

    /** A started process whose output goes to files (no pipe can fill up and stall it). */
    static final class ProcessRun extends Run {
        final Process process;
        final Path out;
        final Path err;

        private ProcessRun(String name, Process process, Path out, Path err) {
            super(name);
            this.process = process;
            this.out = out;
            this.err = err;
        }

        /** Waits at most {@code seconds}; kills the process tree when it takes longer. */
        @Override
        Result await(long seconds) throws Exception {
            boolean finished = process.waitFor(seconds, TimeUnit.SECONDS);
            String threads = "";
            if (!finished) {
                threads = threadDump();
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            return new Result(name, finished ? process.exitValue() : -1, !finished, read(out), read(err) + threads);
        }

        /** Where a hung Java program stands (bin/verbs4j execs java, so the pid is the JVM's). */
        private String threadDump() {
            if (!name.startsWith("java")) {
                return "";
            }
            try {
                Process jcmd = new ProcessBuilder("timeout", "30", "jcmd", Long.toString(process.pid()), "Thread.print")
                        .redirectErrorStream(true).start();
                String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                jcmd.waitFor(35, TimeUnit.SECONDS);
                return "\n--- threads of the hung program\n" + dump;
            } catch (IOException | InterruptedException e) {
                return "\n--- no thread dump: " + e;
            }
        }

        @Override
        void kill() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }

        @Override
        boolean isAlive() {
            return process.isAlive();
        }

        @Override
        long pid() {
            return process.pid();
        }

        @Override
        String stdoutSoFar() {
            return read(out);
        }

        private static String read(Path p) {
            try {
                return Files.readString(p, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        }
    }

    record Result(String name, int exit, boolean timedOut, String stdout, String stderr) {
        String describe() {
            return name + (timedOut ? " TIMED OUT" : " exit " + exit) + "\n--- stdout\n" + stdout + "--- stderr\n"
                    + stderr;
        }

        void assertSuccess() {
            assertTrue(!timedOut && exit == 0, "expected success: " + describe());
        }

        void assertFailure() {
            assertTrue(!timedOut && exit != 0, "expected a non-zero exit, not a hang: " + describe());
        }

        List<String> lines(String prefix) {
            return stdout.lines().filter(l -> l.startsWith(prefix)).toList();
        }
    }

    static Run start(String name, List<String> command) throws IOException {
        Path out = Files.createTempFile("interop-" + name.replaceAll("\\W", "_"), ".out");
        Path err = Files.createTempFile("interop-" + name.replaceAll("\\W", "_"), ".err");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        // bin/verbs4j keeps its AOT cache there: under emulation each JVM start is 1-2 s shorter with it
        pb.environment().putIfAbsent("VERBS4J_AOT_DIR", Path.of("target", "aot").toAbsolutePath().toString());
        return new ProcessRun(name + " " + String.join(" ", command.subList(command.get(0).endsWith("verbs4j") ? 1 : 0,
                command.size())), pb.start(), out, err);
    }

    /** Both sides ended with status 0; otherwise the message shows both sides' output. */
    static void assertBothSucceeded(Result server, Result client) {
        boolean ok = !server.timedOut() && server.exit() == 0 && !client.timedOut() && client.exit() == 0;
        assertTrue(ok, "expected both sides to succeed:\n" + server.describe() + "\n" + client.describe());
    }

    /**
     * Waits until something listens on TCP {@code port} (the pingpong servers), or the server ended.
     * Reads the server's own /proc/PID/net, so a server started under {@code ip netns exec} is seen
     * in its namespace.
     */
    static void awaitTcpListen(int port, Run server) throws Exception {
        String needle = String.format(Locale.ROOT, ":%04X", port);
        String net = "/proc/" + server.pid() + "/net/";
        awaitListening(server, () -> {
            for (String table : List.of(net + "tcp", net + "tcp6")) {
                for (String line : readLinesIfPresent(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && f[1].endsWith(needle) && f[3].equals("0A")) {
                        return true;
                    }
                }
            }
            return false;
        }, () -> "server did not listen on port " + port + " in time: ");
    }

    /**
     * Waits until an rdma_cm id listens on {@code port} (the rping servers: rdma_cm has no TCP
     * socket to look for), as {@code rdma resource show cm_id} lists it, or the server ended.
     */
    static void awaitCmListen(int port, Run server) throws Exception {
        Pattern listening = Pattern.compile("state LISTEN .*src-addr \\S*:" + port + "\\b");
        String[] last = {""};
        awaitListening(server, () -> {
            Process rdma = new ProcessBuilder("rdma", "resource", "show", "cm_id").redirectErrorStream(true).start();
            last[0] = new String(rdma.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            rdma.waitFor(10, TimeUnit.SECONDS);
            return last[0].lines().anyMatch(l -> listening.matcher(l).find());
        }, () -> "no rdma_cm listener on port " + port + " in time; rdma resource show cm_id:\n" + last[0] + "\n");
    }

    /** Checks whether the server listens yet; reads the system's own tables. */
    @FunctionalInterface
    private interface ListenProbe {
        boolean listening() throws Exception;
    }

    /** Probes every 100 ms until {@code probe} sees the listener; fails when the server ends or time runs out. */
    private static void awaitListening(Run server, ListenProbe probe, Supplier<String> notInTime) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PROCESS_SECONDS);
        while (System.nanoTime() < deadline) {
            if (probe.listening()) {
                return;
            }
            if (!server.isAlive()) {
                fail("server ended before listening: " + server.await(1).describe());
            }
            Thread.sleep(100);
        }
        server.kill();
        fail(notInTime.get() + server.await(1).describe());
    }

    private static List<String> readLinesIfPresent(Path table) {
        try {
            return Files.readAllLines(table);
        } catch (IOException e) { // the server just ended
            return List.of();
        }
    }

    /**
     * The two summary lines every pingpong prints: the byte count must be size*iters*2, the iteration
     * count exact, the figures well-formed. Returns the two lines.
     */
    static List<String> assertSummary(Result r, long size, long iters) {
        List<String> bytes = r.stdout.lines().filter(l -> PingpongReportTest.BYTES_LINE.matcher(l).matches()).toList();
        List<String> itersLines = r.stdout.lines().filter(l -> PingpongReportTest.ITERS_LINE.matcher(l).matches())
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
    static void report(String title, Result a, List<String> aLines, Result b, List<String> bLines) {
        System.out.println("[interop] " + title);
        System.out.println("[interop]   " + a.name() + "\n[interop]     " + String.join("\n[interop]     ", aLines));
        System.out.println("[interop]   " + b.name() + "\n[interop]     " + String.join("\n[interop]     ", bLines));
    }
}
