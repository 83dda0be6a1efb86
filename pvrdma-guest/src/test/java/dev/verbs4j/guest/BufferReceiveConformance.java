package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link Channel#receive(ReceiveBuffer, Duration)}, the receive into the caller's own memory,
 * as every transport and mode must do it: part of {@link ChannelConformanceSuite}.
 */
interface BufferReceiveConformance {
    /** As long as the suite waits for anything (its own constant: an interface cannot borrow the class's while that initialises). */
    Duration RECEIVE_WAIT = Duration.ofSeconds(30);

    ChannelPair pair();

    int maxMessage();

    @Test
    default void aBufferReceiveTakesEachMessageWholeWithItsImmediate() throws Exception {
        int[] sizes = {0, 1, 4096, maxMessage()};
        try (Arena arena = Arena.ofShared()) { // the loop's thread may copy the message in
            ReceiveBuffer into = new ReceiveBuffer(arena.allocate(maxMessage()));
            for (int i = 0; i < sizes.length; i++) {
                ChannelConformanceSuite.await(pair().client().send(ChannelTestBytes.pattern(i, sizes[i]), 100 + i));
                into.memory().fill((byte) 0x5A); // what is left of the last message must not pass for this one
                assertTrue(pair().server().receive(into, RECEIVE_WAIT), "message " + i);
                assertEquals(sizes[i], into.length(), "message " + i);
                assertEquals(-1, ChannelTestBytes.mismatch(into.message(), i), "bytes of message " + i);
                assertTrue(into.hasImmediate());
                assertEquals(100 + i, into.immediate());
            }
            pair().client().send(ChannelTestBytes.pattern(9, 16));
            assertTrue(pair().server().receive(into, RECEIVE_WAIT));
            assertFalse(into.hasImmediate(), "no immediate: none left over from the message before");
        }
    }

    @Test
    default void aBufferReceiveThatTimesOutTakesNothing() throws Exception {
        ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[maxMessage()]));
        assertFalse(pair().server().receive(into, Duration.ofMillis(50)), "nothing was sent");
        pair().client().send(ChannelConformanceSuite.number(7));
        pair().client().send(ChannelConformanceSuite.number(8));
        assertTrue(pair().server().receive(into, RECEIVE_WAIT), "the message after the time-out");
        assertEquals(7, into.memory().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        assertEquals(8, ChannelConformanceSuite.await(pair().server().receive()).data().get(ValueLayout.JAVA_INT_UNALIGNED, 0),
                "the next one is not lost to the receive that gave up");
    }

    @Test
    default void bufferReceivesAndReceiveFuturesTakeTurnsInOrder() throws Exception {
        ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[maxMessage()]));
        CompletableFuture<ChannelMessage> first = pair().server().receive();
        for (int i = 0; i < 3; i++) {
            pair().client().send(ChannelConformanceSuite.number(i));
        }
        assertTrue(pair().server().receive(into, RECEIVE_WAIT));
        assertEquals(1, into.memory().get(ValueLayout.JAVA_INT_UNALIGNED, 0), "the future asked first");
        assertEquals(0, ChannelConformanceSuite.await(first).data().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        assertEquals(2, ChannelConformanceSuite.await(pair().server().receive()).data().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
    }

    @Test
    default void aBlockedBufferReceiveFailsWhenThePeerClosesAfterItsLastMessages() throws Exception {
        ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[maxMessage()]));
        CountDownLatch gotTheFirst = new CountDownLatch(1);
        CompletableFuture<ChannelError> blocked = CompletableFuture.supplyAsync(() -> {
            ReceiveBuffer own = new ReceiveBuffer(MemorySegment.ofArray(new byte[maxMessage()]));
            try {
                assertTrue(pair().server().receive(own, RECEIVE_WAIT));
                gotTheFirst.countDown();
                pair().server().receive(own, RECEIVE_WAIT); // blocks: the close comes milliseconds later
                return null;
            } catch (ChannelException e) {
                return e.error();
            }
        });
        pair().client().send(ChannelConformanceSuite.number(0));
        assertTrue(gotTheFirst.await(RECEIVE_WAIT.toSeconds(), TimeUnit.SECONDS));
        pair().client().close();
        assertEquals(ChannelError.PEER_CLOSED, blocked.get(RECEIVE_WAIT.toSeconds(), TimeUnit.SECONDS));
        ChannelException after = assertThrows(ChannelException.class, () -> pair().server().receive(into, RECEIVE_WAIT));
        assertEquals(ChannelError.PEER_CLOSED, after.error());
    }

    @Test
    default void aTooSmallReceiveBufferIsRefusedAndTakesNothing() throws Exception {
        ReceiveBuffer small = new ReceiveBuffer(MemorySegment.ofArray(new byte[maxMessage() - 1]));
        pair().client().send(ChannelConformanceSuite.number(5));
        assertThrows(IllegalArgumentException.class, () -> pair().server().receive(small, RECEIVE_WAIT));
        assertEquals(5, ChannelConformanceSuite.await(pair().server().receive()).data().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
    }
}
