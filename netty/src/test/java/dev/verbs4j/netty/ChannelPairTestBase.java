package dev.verbs4j.netty;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A test's event loop group on verbs4j's loops, and the server and client it opens, closed after it. */
abstract class ChannelPairTestBase {
    EventLoopGroup group;
    Channel server, client;

    @BeforeEach
    void startGroup() {
        group = new MultiThreadIoEventLoopGroup(2, Verbs4jIoHandler.newFactory());
    }

    @AfterEach
    void closeAll() {
        if (client != null) {
            client.close().syncUninterruptibly();
        }
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
