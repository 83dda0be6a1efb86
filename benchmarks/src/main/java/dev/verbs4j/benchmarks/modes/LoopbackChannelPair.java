package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A channel pair on loopback in this JVM, each end on its own completion loop (as two processes
 * would be): what the channel benchmarks measure over.
 *
 * @param server the accepting end
 * @param client the connecting end
 */
public record LoopbackChannelPair(Channel server, Channel client) implements AutoCloseable {
    private static final Duration WAIT = Duration.ofMinutes(10);

    /**
     * Listens on 127.0.0.1, connects to it and accepts, both ends with {@code config}.
     *
     * @param config both ends' configuration (transport, mode, message size)
     * @return the connected pair
     * @throws Exception when connecting fails
     */
    public static LoopbackChannelPair open(ChannelConfig config) throws Exception {
        try (ChannelServer listener = ChannelServer.listen("127.0.0.1", 0, config)) {
            CompletableFuture<Channel> connecting = CompletableFuture.supplyAsync(
                    () -> ChannelConnector.connect("127.0.0.1", listener.port(), config));
            Channel server = listener.accept(WAIT);
            try {
                return new LoopbackChannelPair(server, connecting.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            } catch (Exception e) {
                server.close();
                throw e;
            }
        }
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            server.close();
        }
    }
}
