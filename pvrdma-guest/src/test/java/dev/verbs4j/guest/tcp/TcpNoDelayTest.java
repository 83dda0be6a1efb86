package dev.verbs4j.guest.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ChannelPair;
import dev.verbs4j.guest.TransportPreference;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link ChannelConfig#tcpNoDelay}: each side's socket gets what its own configuration asked, and
 * a side with Nagle on still delivers a burst of small messages whole and in order, and answers a
 * ping at once.
 */
class TcpNoDelayTest {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    @Test
    void eachSideSetsItsOwnSocketAndNagleLosesNothing() throws Exception {
        ChannelConfig server = ChannelConfig.defaults().transport(TransportPreference.TCP);
        ChannelConfig client = ChannelConfig.defaults().transport(TransportPreference.TCP).tcpNoDelay(false);
        assertTrue(server.tcpNoDelay(), "TCP_NODELAY is the default");
        ChannelPair pair = ChannelPair.open(server, client);
        try {
            assertFalse(((TcpChannel) pair.client()).sendsAtOnce(), "the client asked for Nagle");
            assertTrue(((TcpChannel) pair.server()).sendsAtOnce(), "the server kept TCP_NODELAY");
            List<CompletableFuture<ChannelMessage>> arriving = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                arriving.add(pair.server().receive());
            }
            for (int i = 0; i < 1000; i++) {
                pair.client().send(MemorySegment.ofArray(new int[] {i}));
            }
            for (int i = 0; i < 1000; i++) {
                ChannelMessage m = arriving.get(i).get(30, TimeUnit.SECONDS);
                assertEquals(4, m.length(), "message " + i);
                assertEquals(i, m.data().get(INT, 0), "message " + i);
            }
            CompletableFuture<ChannelMessage> answer = pair.client().receive();
            pair.server().send(MemorySegment.ofArray(new int[] {-1}));
            assertEquals(-1, answer.get(30, TimeUnit.SECONDS).data().get(INT, 0));
        } finally {
            pair.close();
        }
    }
}
