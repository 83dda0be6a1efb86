package dev.verbs4j.benchmarks.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.loop.CompletionMode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two ends NettyEchoBench runs in two JVMs, here in one over NIO and over verbs4j's TCP
 * fallback (any host): every round trip is timed, streams that end mid-chunk are each answered
 * on one connection, and the server counts both connections closed.
 */
class EchoServerTest {
    @ParameterizedTest
    @ValueSource(strings = {"nio", "verbs4j-tcp"})
    void roundTripsAndStreamsComplete(String name) {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            NettyTransport transport = NettyTransport.parse(name, CompletionMode.ADAPTIVE);
            EventLoopGroup group = transport.newGroup(1);
            try (EchoServer server = new EchoServer(transport, "127.0.0.1")) {
                try (EchoClient echo = new EchoClient(transport, group, server.echoAddress())) {
                    ByteBuf request = Unpooled.directBuffer(4096).writeZero(4096);
                    long[] nanos = new long[50];
                    echo.roundTrips(request, nanos.length, nanos);
                    assertTrue(Arrays.stream(nanos).allMatch(n -> n > 0), Arrays.toString(nanos));
                    assertEquals(1, request.refCnt()); // each round trip wrote a retained duplicate
                }
                try (StreamClient stream = new StreamClient(transport, group, server.sinkAddress())) {
                    ByteBuf chunk = Unpooled.directBuffer(65536).writeZero(65536);
                    assertTrue(stream.stream(chunk, 3 * 65536 + 100) > 0);
                    assertTrue(stream.stream(chunk, 10) > 0); // the sink is ready for the next header
                    assertEquals(1, chunk.refCnt());
                }
                assertTrue(server.awaitClosed(2, 30, TimeUnit.SECONDS));
            } finally {
                group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            }
        });
    }
}
