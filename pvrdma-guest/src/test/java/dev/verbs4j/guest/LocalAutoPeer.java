package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A peer on this machine for the tests of what AUTO chooses: a child JVM ({@link ChannelPeerProcess})
 * that connects with AUTO and echoes, as this user or, behind {@code setpriv}, as another.
 */
final class LocalAutoPeer {
    static final Duration WAIT = ChannelPeerProcess.BOOTSTRAP_WAIT;
    /** The uid (and gid) a peer under another user runs as. */
    static final int NOBODY = 65534;

    private LocalAutoPeer() {}

    /** How AUTO describes its choice between two processes of one user in one network namespace. */
    static final String SAME_HOST = "shm (reason: both processes on one kernel, in one network namespace, "
            + "under one user)";

    /** A peer of this user: both ends must share memory, and say why. */
    static void echoesOverSharedMemory() throws Exception {
        File log = File.createTempFile("shm-auto-peer-", ".log");
        try {
            String peer = echoOnce(List.of(), ChannelPeerProcess.testClassPath(), log, SAME_HOST);
            assertTrue(peer.lines().anyMatch(("transport: " + SAME_HOST)::equals), peer);
        } finally {
            log.delete();
        }
    }

    /**
     * A peer run as {@link #NOBODY} (no supplementary groups) from a class path it can read: this
     * side's choice must hold {@code expected}. Returns the peer's output.
     */
    static String echoesAsNobody(String expected) throws Exception {
        Path classes = readableCopy(ChannelPeerProcess.testClassPath());
        File log = File.createTempFile("shm-auto-peer-", ".log");
        try {
            return echoOnce(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups"),
                    Files.readString(classes.resolve("classpath")), log, expected);
        } finally {
            log.delete();
            deleteTree(classes);
        }
    }

    /**
     * A child JVM behind {@code prefix} connects with AUTO and echoes; this side checks that its
     * transport's description or reason has {@code expected} in it and that a message comes back whole. Returns the
     * child's output.
     */
    private static String echoOnce(List<String> prefix, String classPath, File log, String expected)
            throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
             ChannelServer server = ChannelServer.listen("127.0.0.1", 0,
                     ChannelConfig.defaults().loop(loop).connectTimeout(WAIT))) {
            Process peer = ChannelPeerProcess.start(prefix, classPath, "127.0.0.1", server.port(),
                    ChannelConfig.defaults().maxMessageSize(4096), "echo", log);
            try (Channel channel = server.accept(Duration.ofSeconds(120))) {
                String chosen = channel.transport().describe() + ", " + channel.transport().reason();
                assertTrue(chosen.contains(expected), chosen);
                channel.send(ChannelTestBytes.pattern(5, 4000), 7).get(30, TimeUnit.SECONDS);
                ChannelMessage echo = channel.receive().get(30, TimeUnit.SECONDS);
                assertEquals(-1, ChannelTestBytes.mismatch(echo.data(), 5));
            } finally {
                assertTrue(peer.waitFor(60, TimeUnit.SECONDS), "the peer ends when the channel closes");
                peer.destroyForcibly();
            }
        }
        return Files.readString(log.toPath());
    }

    static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .anyMatch(l -> l.startsWith("Uid:") && l.substring(4).trim().split("\\s+")[1].equals("0"));
    }

    /**
     * A directory that holds the class path's jars copied where any user may read them (a local
     * Maven repository is often private to its owner) and, in its file {@code classpath}, the class
     * path that uses the copies (directories stay as they are).
     */
    private static Path readableCopy(String classPath) throws IOException {
        Path dir = Files.createTempDirectory("shm-auto-cp-", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (String entry : classPath.split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (entry.isEmpty() || !Files.exists(p)) {
                continue;
            }
            if (Files.isRegularFile(p)) {
                Path copy = dir.resolve((i++) + "-" + p.getFileName());
                Files.copy(p, copy);
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
                entries.add(copy.toString());
            } else {
                entries.add(entry);
            }
        }
        Files.writeString(dir.resolve("classpath"), String.join(File.pathSeparator, entries));
        return dir;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
