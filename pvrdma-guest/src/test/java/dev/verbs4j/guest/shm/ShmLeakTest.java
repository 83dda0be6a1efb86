package dev.verbs4j.guest.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** 500 channels opened, used once and closed: the process's fds and its segment mappings are back where they started. */
class ShmLeakTest {

    @Test
    void openAndCloseLeaveNoFdsAndNoMappings() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.SHM).loop(loop)
                    .maxMessageSize(1024).sendQueueDepth(4);
            try (ChannelServer server = ChannelServer.listen("127.0.0.1", 0, config)) {
                cycle(server, config); // the first one loads classes and opens the JDK's own fds
                long fds = fds(), mappings = segmentMappings();
                for (int i = 0; i < 500; i++) {
                    cycle(server, config);
                }
                assertEquals(fds, fds(), "open fds");
                assertEquals(mappings, segmentMappings(), "shared segments mapped");
                assertEquals(0, segmentMappings(), "shared segments mapped after every close");
            }
        }
    }

    private static void cycle(ChannelServer server, ChannelConfig config) throws Exception {
        CompletableFuture<Channel> client = CompletableFuture.supplyAsync(
                () -> ChannelConnector.connect("127.0.0.1", server.port(), config));
        try (Channel accepted = server.accept(Duration.ofSeconds(30));
             Channel connected = client.get(30, TimeUnit.SECONDS)) {
            connected.send(MemorySegment.ofArray(new byte[] {1, 2, 3}));
            ChannelMessage m = accepted.receive().get(30, TimeUnit.SECONDS);
            assertEquals(3, m.length());
        }
    }

    private static long fds() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    private static long segmentMappings() throws IOException {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return lines.filter(l -> l.contains("verbs4j-shm")).count();
        }
    }
}
