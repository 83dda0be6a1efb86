package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.bootstrap.EchoingServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A process whose open-file limit runs out while it opens channels: the channel that cannot be
 * opened fails with an error that names the limit, its value and how to raise it; the channels
 * already open keep working, and once some are closed new ones open again. Each channel holds a
 * socket, so fewer than the limit open: more means sockets were closed under their channels (a
 * tool the connect's probe started failed to make its pipes and closed fd 0, a channel's socket).
 */
class OpenFileLimitTest {
    /** Enough for the JVM's own files and a few dozen channels. */
    private static final int NOFILE = 160;

    @Test
    void runningOutOfFileDescriptorsNamesTheLimitAndLosesNothing() throws Exception {
        try (EchoingServer server = new EchoingServer(ChannelConfig.defaults().transport(TransportPreference.TCP)
                .maxMessageSize(256))) {
            File log = File.createTempFile("open-file-limit-", ".log");
            log.deleteOnExit();
            Process child = new ProcessBuilder(List.of("prlimit", "--nofile=" + NOFILE + ":" + NOFILE, "--",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
                    "-cp", classPathOfJars(), OpenFileLimitChild.class.getName(),
                    Integer.toString(server.port()), Integer.toString(4 * NOFILE)))
                    .redirectErrorStream(true).redirectOutput(log).start();
            boolean ended = child.waitFor(60, TimeUnit.SECONDS);
            String stacks = ended ? "" : threadDump(child);
            if (!ended) {
                child.destroyForcibly();
            }
            String out = Files.readString(log.toPath(), StandardCharsets.UTF_8) + stacks;
            assertTrue(ended, "the child hung: " + out);
            assertEquals(0, child.exitValue(), out);
            int opened = out.lines().filter(l -> l.startsWith("opened ")).mapToInt(l -> Integer.parseInt(l.substring(7)))
                    .findFirst().orElse(-1);
            assertTrue(opened > 0 && opened < NOFILE, "each channel holds a socket, so fewer than " + NOFILE
                    + " open: " + opened);
            String error = out.lines().filter(l -> l.startsWith("limit-error: ")).findFirst().orElse("");
            assertTrue(error.contains("EMFILE") && error.contains("RLIMIT_NOFILE")
                    && error.contains("soft " + NOFILE + ", hard " + NOFILE) && error.contains("ulimit -n"),
                    "the error names the limit, its value and how to raise it: " + out);
            assertTrue(out.contains("all-still-work"), out);
            assertTrue(out.contains("reopened-after-close"), out);
            System.out.print(out);
        }
    }

    /**
     * The test's class path with every directory packed into a jar: the child runs from jars, as
     * applications do, because loading a class from a directory takes a free fd, and a JVM at
     * its fd limit could load none (a jar stays open).
     */
    private static String classPathOfJars() throws Exception {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (!Files.isDirectory(p)) {
                entries.add(entry);
                continue;
            }
            Path jar = Files.createTempFile("open-file-limit-cp-", ".jar");
            jar.toFile().deleteOnExit();
            Process jarTool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jar").toString(),
                    "--create", "--file", jar.toString(), "-C", p.toString(), ".").inheritIO().start();
            assertTrue(jarTool.waitFor(60, TimeUnit.SECONDS) && jarTool.exitValue() == 0, "jar of " + p);
            entries.add(jar.toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Where a hung child stands (the prlimit'ed command execs java, so the pid is the JVM's). */
    private static String threadDump(Process child) throws Exception {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(child.pid()), "Thread.print").redirectErrorStream(true).start();
        String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        jcmd.waitFor(30, TimeUnit.SECONDS);
        return "\n--- the child's threads:\n" + dump;
    }
}
