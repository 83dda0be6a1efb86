package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.guest.bootstrap.PendingChannel;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What {@code AUTO} chooses between two ends on this machine, from what each states in the
 * bootstrap exchange: shared memory between two processes (or two ends in one JVM) of one user in
 * one network namespace; RDMA or TCP, with the reason shared memory was not chosen, for a peer
 * under another uid (a child JVM started by {@code setpriv}) or in another network namespace (the
 * accepting thread enters a namespace of its own, made by {@code unshare -n}, before it sets the
 * accepted connection up: its statement and its abstract unix sockets are that namespace's). The
 * last two need root, as {@code ci/test} runs.
 */
class ShmAutoSelectionTest {
    private static final Duration WAIT = ChannelPeerProcess.BOOTSTRAP_WAIT;
    private static final String SAME_HOST = "shm (reason: both processes on one kernel, in one network namespace, "
            + "under one user)";
    private static final int NOBODY = 65534;

    @Test
    void twoEndsInOneJvmGetSharedMemory() throws Exception {
        try (ChannelPair pair = ChannelPair.open(ChannelConfig.defaults(), ChannelConfig.defaults())) {
            assertEquals(SAME_HOST, pair.server().transport().describe());
            assertEquals(SAME_HOST, pair.client().transport().describe());
            pair.client().send(ChannelTestBytes.pattern(3, 1000)).get(30, TimeUnit.SECONDS);
            assertEquals(-1, ChannelTestBytes.mismatch(pair.server().receive().get(30, TimeUnit.SECONDS).data(), 3));
        }
    }

    @Test
    void twoProcessesOfOneUserGetSharedMemory() throws Exception {
        File log = File.createTempFile("shm-auto-peer-", ".log");
        try {
            String peer = echoOnce(List.of(), ChannelPeerProcess.testClassPath(), log, SAME_HOST);
            assertTrue(peer.lines().anyMatch(("transport: " + SAME_HOST)::equals), peer);
        } finally {
            log.delete();
        }
    }

    @Test
    void aPeerUnderAnotherUidFallsBackWithItsReason() throws Exception {
        assumeTrue(isRoot(), "needs root to start the peer under another uid");
        Path classes = readableCopy(ChannelPeerProcess.testClassPath());
        File log = File.createTempFile("shm-auto-peer-", ".log");
        try {
            List<String> prefix = List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups");
            String peer = echoOnce(prefix, Files.readString(classes.resolve("classpath")), log, "not shm: the peer runs as uid " + NOBODY + ", this process as 0");
            assertTrue(peer.contains("not shm: the peer runs as uid 0, this process as " + NOBODY), peer);
        } finally {
            log.delete();
            deleteTree(classes);
        }
    }

    @Test
    void aPeerInAnotherNetworkNamespaceFallsBackWithItsReason() throws Exception {
        assumeTrue(isRoot(), "needs root to enter a network namespace of its own");
        // the namespace lives while cat waits on its input; "ready" once it exists
        Process holder = new ProcessBuilder("unshare", "-n", "sh", "-c", "echo ready; exec cat").start();
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
             ChannelServer server = ChannelServer.listen("127.0.0.1", 0, ChannelConfig.defaults().loop(loop))) {
            assertEquals("ready", holder.inputReader().readLine(), "unshare -n made a namespace");
            String here = NetnsThread.currentThreadNamespace();
            Path other = Path.of("/proc", Long.toString(holder.pid()), "ns", "net");
            CompletableFuture<Channel> client = CompletableFuture.supplyAsync(() ->
                    dev.verbs4j.guest.bootstrap.ChannelConnector.connect("127.0.0.1", server.port(),
                            ChannelConfig.defaults().connectTimeout(WAIT)));
            try (PendingChannel pending = server.acceptPending(WAIT);
                 Channel accepted = NetnsThread.supply(other, () -> pending.establish(ChannelConfig.defaults()
                         .loop(loop).connectTimeout(WAIT))).get(60, TimeUnit.SECONDS);
                 Channel connected = client.get(60, TimeUnit.SECONDS)) {
                assertTrue(accepted.transport().reason().contains("not shm: the peer is in another network namespace ("
                        + here + ", here " + Files.readSymbolicLink(other) + ")"), accepted.transport().describe());
                assertTrue(connected.transport().reason().contains("not shm: the peer is in another network "
                        + "namespace"), connected.transport().describe());
                assertEquals(accepted.transport().kind(), connected.transport().kind());
                connected.send(ChannelTestBytes.pattern(4, 2000)).get(30, TimeUnit.SECONDS);
                assertEquals(-1, ChannelTestBytes.mismatch(accepted.receive().get(30, TimeUnit.SECONDS).data(), 4));
            }
        } finally {
            holder.destroyForcibly();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A child JVM behind {@code prefix} connects with AUTO and echoes; this side checks that its
     * transport describes with {@code expected} in it and that a message comes back whole. Returns the
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
                assertTrue(channel.transport().describe().contains(expected), channel.transport().describe());
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

    private static boolean isRoot() throws IOException {
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
