package dev.verbs4j.guest.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelPair;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A peer that scribbles over its side of the segment: the ring it writes (random contents, with
 * the commit word set so the reader looks at them) and the position it publishes. The reading
 * side ends its channel with TRANSPORT, reads nothing out of bounds and goes on working: the
 * next pair in the same JVM and loop carries messages as before.
 */
class HostileRingTest {
    private static final int MAX = 4096;

    @Test
    void randomRecordsEndTheChannelAndNothingElse() throws Exception {
        Random random = new Random(49);
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.BUSY_POLL)) {
            for (int round = 0; round < 24; round++) {
                int type = round < 8 ? random.nextInt() : round % 8;
                int length = switch (round % 3) {
                    case 0 -> random.nextInt();
                    case 1 -> -1 - random.nextInt(1000);
                    default -> MAX + ShmRecord.REQUEST_FIELDS + 1 + random.nextInt(1 << 20);
                };
                scribbleAndExpectTheEnd(loop, type, length, random);
            }
            assertScribbled(loop, ShmRecord.PADDING, 8, random); // padding that does not end the ring
            assertScribbled(loop, ShmRecord.WRITE, ShmRecord.REQUEST_FIELDS - 1, random); // shorter than its fields
        }
    }

    @Test
    void aReadOverTheMaximumEndsTheChannel() throws Exception {
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.BUSY_POLL);
             ChannelPair pair = open(loop)) {
            MemorySegment ring = ringReadBy(pair.server(), pair.client());
            ring.set(ValueLayout.JAVA_INT, ShmRecord.HEADER + ShmRecord.READ_LENGTH, MAX + 1);
            commit(ring, ShmRecord.READ, ShmRecord.REQUEST_FIELDS);
            assertEnded(pair.server());
        }
    }

    @Test
    void aPublishedPositionOutsideTheRingEndsTheWritersChannel() throws Exception {
        CountDownLatch letGo = new CountDownLatch(1);
        try (CompletionLoop serverLoop = CompletionLoop.start(CompletionMode.BUSY_POLL);
             CompletionLoop clientLoop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelPair pair = ChannelPair.open(config(serverLoop), config(clientLoop));
            try {
                CountDownLatch held = new CountDownLatch(1);
                clientLoop.execute(() -> { // the client takes nothing: its real position never overwrites ours
                    held.countDown();
                    awaitQuietly(letGo);
                });
                assertTrue(held.await(30, TimeUnit.SECONDS));
                ShmChannel server = (ShmChannel) pair.server();
                long control = ShmLayout.controlOf(server.isCreator());
                server.segmentMemory().set(ValueLayout.JAVA_LONG, control + ShmLayout.HEAD, 1L << 40);
                ChannelException e = assertInstanceOf(ChannelException.class, assertThrows(ExecutionException.class,
                        () -> server.send(MemorySegment.ofArray(new byte[64])).get(30, TimeUnit.SECONDS)).getCause());
                assertEquals(ChannelError.TRANSPORT, e.error(), e.getMessage());
                assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
            } finally {
                letGo.countDown();
                pair.client().close();
                pair.server().close();
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void assertScribbled(CompletionLoop loop, int type, int length, Random random) throws Exception {
        scribbleAndExpectTheEnd(loop, type, length, random);
    }

    /** A fresh pair; the client scribbles the ring the server reads; the server must end, and a message must then go through another pair. */
    private static void scribbleAndExpectTheEnd(CompletionLoop loop, int type, int length, Random random) throws Exception {
        try (ChannelPair pair = open(loop)) {
            MemorySegment ring = ringReadBy(pair.server(), pair.client());
            byte[] noise = new byte[64 * 1024];
            random.nextBytes(noise);
            MemorySegment.copy(MemorySegment.ofArray(noise), 0, ring, 0, noise.length);
            commit(ring, type, length);
            assertEnded(pair.server());
        }
    }

    /** Sets the first record's header: its commit word last, as a producer does. */
    private static void commit(MemorySegment ring, int type, int length) {
        ring.set(ValueLayout.JAVA_INT, ShmRecord.LENGTH, length);
        ring.set(ValueLayout.JAVA_INT, ShmRecord.TYPE, type);
        ValueLayout.JAVA_LONG.varHandle().setRelease(ring, ShmRecord.COMMIT, 1L);
    }

    private static void assertEnded(Channel channel) throws Exception {
        ChannelException e = assertInstanceOf(ChannelException.class, assertThrows(ExecutionException.class,
                () -> channel.receive().get(30, TimeUnit.SECONDS)).getCause());
        assertEquals(ChannelError.TRANSPORT, e.error(), e.getMessage());
        assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
    }

    /** The data of the ring {@code reader} reads, as mapped by the peer that writes it. */
    private static MemorySegment ringReadBy(Channel reader, Channel writer) {
        ShmChannel w = (ShmChannel) writer;
        long capacity = ShmLayout.capacity(ChannelConfig.defaults().sendQueueDepth(),
                ChannelConfig.defaults().sendQueueDepth(), MAX);
        assertEquals(!w.isCreator(), ((ShmChannel) reader).isCreator());
        return w.segmentMemory().asSlice(ShmLayout.dataOf(w.isCreator(), capacity), capacity);
    }

    private static ChannelConfig config(CompletionLoop loop) {
        return ChannelConfig.defaults().transport(TransportPreference.SHM).loop(loop).maxMessageSize(MAX);
    }

    private static ChannelPair open(CompletionLoop loop) throws Exception {
        ChannelPair pair = ChannelPair.open(config(loop), config(loop));
        return new ChannelPair(pair.server(), pair.client(), null); // the loop is the test's
    }
}
