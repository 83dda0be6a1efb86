package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The programs as a user runs them (a JVM each): results on stdout once, the library's log on
 * stderr and only from WARN unless -v asks for more.
 */
class CliOutputTest {
    private static final long PROCESS_SECONDS = 120;

    @TempDir
    Path dir;

    record Output(int exit, String stdout, String stderr) {
        long lines(String prefix) {
            return stdout.lines().filter(l -> l.startsWith(prefix)).count();
        }
    }

    private Process start(String name, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile()).start();
    }

    private Output await(String name, Process p) throws Exception {
        if (!p.waitFor(PROCESS_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(name + " did not finish");
        }
        return new Output(p.exitValue(), Files.readString(dir.resolve(name + ".out"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve(name + ".err"), StandardCharsets.UTF_8));
    }

    /** Server and client of bin/verbs4j pingpong over TCP on loopback; the client retries until the server listens. */
    private Output[] pingpong(String... extra) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> common = new ArrayList<>(List.of("--transport", "tcp", "-s", "64", "-n", "20", "-p",
                Integer.toString(port)));
        common.addAll(List.of(extra));
        List<String> serverArgs = new ArrayList<>(common);
        serverArgs.add("--server");
        Process server = start("server", "dev.verbs4j.examples.PingpongCommand", serverArgs.toArray(String[]::new));
        List<String> clientArgs = new ArrayList<>(common);
        clientArgs.add("127.0.0.1");
        Output client = null;
        for (int attempt = 0; attempt < 60 && server.isAlive(); attempt++) {
            client = await("client", start("client", "dev.verbs4j.examples.PingpongCommand",
                    clientArgs.toArray(String[]::new)));
            if (client.exit() == 0 || !client.stderr().contains("onnect")) {
                break; // ran, or failed for another reason than a server not listening yet
            }
            Thread.sleep(200);
        }
        return new Output[] {await("server", server), client};
    }

    @Test
    void pingpongPrintsItsTransportLineOnceAndNoLibraryLog() throws Exception {
        Output[] runs = pingpong();
        for (Output o : runs) {
            assertEquals(0, o.exit(), o.toString());
            assertEquals(1, o.lines("transport: tcp"), o.stdout());
            assertFalse(o.stderr().contains("INFO"), "no INFO log without -v:\n" + o.stderr());
            assertFalse(o.stderr().contains("transport:"), o.stderr());
        }
        assertTrue(runs[1].stdout().contains("latency: round trip avg"), runs[1].stdout());
    }

    @Test
    void verboseSendsTheLibraryLogToStderrAndLeavesStdoutAlone() throws Exception {
        Output[] runs = pingpong("-v");
        for (Output o : runs) {
            assertEquals(0, o.exit(), o.toString());
            assertEquals(1, o.lines("transport: tcp"), o.stdout());
            assertTrue(o.stderr().contains("INFO"), "-v shows INFO on stderr:\n" + o.stderr());
            assertFalse(o.stdout().contains("INFO"), o.stdout());
        }
    }

    @Test
    void doctorPrintsItsVerdictOnce() throws Exception {
        Output o = await("doctor", start("doctor", "dev.verbs4j.examples.DoctorCommand"));
        assertEquals(1, o.lines("transport: "), o.toString());
        assertFalse(o.stderr().contains("INFO"), o.stderr());
    }

    @Test
    void aUsageErrorIsOneClearMessageAndExitTwo() throws Exception {
        Output o = await("bad", start("bad", "dev.verbs4j.examples.PingpongCommand", "--size"));
        assertEquals(2, o.exit(), o.toString());
        assertEquals("", o.stdout());
        assertTrue(o.stderr().startsWith("verbs4j pingpong: Missing required parameter for option '--size'"), o.stderr());
        assertTrue(o.stderr().contains("Try 'verbs4j pingpong --help'"), o.stderr());
    }
}
