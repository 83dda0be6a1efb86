package dev.verbs4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The top-level command against bin/verbs4j, the generated completion and man pages, and the launcher itself. */
class Verbs4jCommandTest {
    /** surefire runs in the module directory, cli/ */
    private static final Path LAUNCHER = Path.of("..", "bin", "verbs4j").toAbsolutePath().normalize();

    /** The subcommands bin/verbs4j dispatches, read from its resolve() case lines. */
    private static List<String> launcherSubcommands() throws Exception {
        Matcher m = Pattern.compile("(?m)^\\s+([a-z][a-z-]*)\\) echo \"").matcher(Files.readString(LAUNCHER));
        List<String> names = new ArrayList<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void helpListsEverySubcommandTheLauncherRuns() throws Exception {
        CommandLine top = Verbs4jCommand.commandLine();
        List<String> launcher = launcherSubcommands();
        assertTrue(launcher.size() >= 9, launcher.toString());
        assertEquals(launcher.stream().sorted().toList(), top.getSubcommands().keySet().stream().sorted().toList());
        StringWriter out = new StringWriter();
        top.setOut(new PrintWriter(out));
        assertEquals(0, top.execute("--help"));
        for (String name : launcher) {
            assertTrue(out.toString().contains("\n  " + name + " "), name + " in\n" + out);
        }
    }

    @Test
    void completionAndManPagesCoverEverySubcommand(@TempDir Path dir) throws Exception {
        CliDocs.main(new String[] {dir.toString()});
        String completion = Files.readString(dir.resolve("verbs4j_completion"));
        for (String name : launcherSubcommands()) {
            assertTrue(completion.contains(name), name);
            assertTrue(Files.readString(dir.resolve("man").resolve("verbs4j-" + name + ".adoc")).contains("= verbs4j-" + name
                    + "(1)"), name);
        }
        assertTrue(completion.contains("--size"), "perf's options complete");
        assertTrue(Files.readString(dir.resolve("man/verbs4j.adoc")).contains("rc-pingpong"));
    }

    private record Run(int exit, String stdout, String stderr) {}

    private static Process start(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return pb.start();
    }

    private static Run await(Path dir, Process p) throws Exception {
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bin/verbs4j did not finish");
        }
        return new Run(p.exitValue(), Files.readString(dir.resolve("out"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("err"), StandardCharsets.UTF_8));
    }

    @Test
    void launcherTakesPerftestsAttachedSize(@TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // a server with -s64 parses and listens; a peer that connects and hangs up ends it with a run error, not a usage error
        Process server = start(dir, "perf", "send_lat", "-s64", "-p", Integer.toString(port));
        boolean connected = false;
        while (!connected && server.isAlive()) {
            try (Socket peer = new Socket("127.0.0.1", port)) {
                connected = true;
            } catch (ConnectException notYetListening) {
                Thread.sleep(100);
            }
        }
        Run r = await(dir, server);
        assertTrue(connected, r.toString());
        assertTrue(r.stdout().contains("* Waiting for client to connect... *"), r.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.stderr().startsWith("verbs4j perf: "), r.stderr());
        assertFalse(r.stderr().contains("--help"), r.stderr());

        Run bad = await(dir, start(dir, "perf", "send_lat", "-s"));
        assertEquals(2, bad.exit(), bad.toString());
        assertTrue(bad.stderr().startsWith("verbs4j perf: Missing required parameter for option '--size'"), bad.stderr());
        assertTrue(bad.stderr().contains("Try 'verbs4j perf --help' for more information."), bad.stderr());
    }
}
