package dev.verbs4j.guest.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.loop.CompletionLoop;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Messages that arrive before a listener is set wait in the inbox; the listener then gets them
 * in order, through the same method as the messages after them.
 */
class ChannelInboxTest {

    @Test
    void aListenerThatReadsInPlaceGetsTheBacklogInPlaceAndInOrder() {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
             Arena arena = Arena.ofConfined()) {
            ChannelInbox inbox = new ChannelInbox(loop.engine(), loop, 1 << 20);
            MemorySegment receiveMemory = arena.allocate(64);
            for (int i = 1; i <= 2; i++) { // no listener yet: both wait, as copies
                receiveMemory.set(ValueLayout.JAVA_INT_UNALIGNED, 8, i);
                inbox.deliver(null, receiveMemory, 8, 4, i == 2, 100 + i);
            }
            receiveMemory.fill((byte) 0); // the transport reuses its memory at once

            InPlaceRecorder recorder = new InPlaceRecorder();
            inbox.setListener(null, recorder);
            receiveMemory.set(ValueLayout.JAVA_INT_UNALIGNED, 16, 3);
            inbox.deliver(null, receiveMemory, 16, 4, false, 0);

            assertEquals(List.of("1 false 101", "2 true 102", "3 false 0"), recorder.seen);
        }
    }

    @Test
    void aBufferReceiveWhereTheLoopRunsIsRefusedAndTakesNothing() {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
             Arena arena = Arena.ofConfined()) {
            ChannelInbox inbox = new ChannelInbox(loop.engine(), loop, 1 << 20);
            MemorySegment receiveMemory = arena.allocate(64).fill((byte) 7);
            inbox.deliver(null, receiveMemory, 0, 4, false, 0);
            ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[64]));
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            loop.engine().runAndWait(() -> thrown.set(assertThrows(IllegalStateException.class,
                    () -> inbox.receive(into, 1_000_000_000L, loop.engine()::drive))), Duration.ofSeconds(10));
            assertTrue(thrown.get().getMessage().contains("stall the loop"), thrown.get().getMessage());
            assertTrue(inbox.receive(into, 0, loop.engine()::drive), "the message is still there for a receive elsewhere");
            assertEquals(4, into.length());
        }
    }

    /**
     * The inbox keeps a bounded number of messages nobody asked for: the delivery that fills it
     * says so, and a receive that makes room has the transport go on, in the loop's passes.
     */
    @Test
    void aFullInboxHoldsTheTransportBackUntilAReceiveMakesRoom() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
             Arena arena = Arena.ofConfined()) {
            ChannelInbox inbox = new ChannelInbox(loop.engine(), loop, 2 * (4 + 64)); // two 4-byte messages
            java.util.concurrent.CompletableFuture<Boolean> wentOn = new java.util.concurrent.CompletableFuture<>();
            inbox.onRoomAgain(() -> wentOn.complete(loop.inLoop()));
            MemorySegment receiveMemory = arena.allocate(64);
            assertTrue(inbox.deliver(null, receiveMemory, 0, 4, false, 0), "one kept, room for another");
            assertFalse(inbox.deliver(null, receiveMemory, 0, 4, false, 0), "two kept: hold back");
            assertFalse(wentOn.isDone());
            assertEquals(4, inbox.receive().get(10, java.util.concurrent.TimeUnit.SECONDS).length());
            assertTrue(wentOn.get(10, java.util.concurrent.TimeUnit.SECONDS), "told to go on, in the loop's passes");
            java.util.concurrent.CompletableFuture<ChannelMessage> waiting = inbox.receive();
            assertTrue(waiting.isDone(), "the one kept");
            java.util.concurrent.CompletableFuture<ChannelMessage> next = inbox.receive();
            assertTrue(inbox.deliver(null, receiveMemory, 0, 4, false, 0), "a waiting receive takes it: nothing kept");
            assertTrue(next.isDone());
        }
    }

    /** Records what reaches the in-place method; the copying one must not be called. */
    private static final class InPlaceRecorder implements ChannelListener {
        final List<String> seen = new ArrayList<>();

        @Override
        public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                              int immediate) {
            assertEquals(4, length);
            seen.add(buffer.get(ValueLayout.JAVA_INT_UNALIGNED, offset) + " " + hasImmediate + " " + immediate);
        }

        @Override
        public void onMessage(Channel channel, ChannelMessage message) {
            fail("a listener that reads in place got a copy: " + message);
        }
    }
}
