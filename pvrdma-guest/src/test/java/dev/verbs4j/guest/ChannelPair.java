package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionLoop;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Two connected channels in one JVM over loopback (the server end and the client end), on one shared loop. */
public record ChannelPair(Channel server, Channel client, CompletionLoop loop) implements AutoCloseable {

    public static ChannelPair open(ChannelConfig serverConfig, ChannelConfig clientConfig) throws Exception {
        return open("127.0.0.1", serverConfig, clientConfig);
    }

    /** As above, the server listening on {@code address} (and the client connecting there). */
    static ChannelPair open(String address, ChannelConfig serverConfig, ChannelConfig clientConfig) throws Exception {
        try (ChannelServer listener = ChannelServer.listen(address, 0, serverConfig)) {
            CompletableFuture<Channel> client = CompletableFuture.supplyAsync(
                    () -> ChannelConnector.connect(address, listener.port(), clientConfig));
            Channel server = listener.accept(Duration.ofSeconds(60));
            return new ChannelPair(server, client.get(60, TimeUnit.SECONDS), serverConfig.loop());
        }
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            server.close();
            if (loop != null) {
                loop.close();
            }
        }
    }
}
