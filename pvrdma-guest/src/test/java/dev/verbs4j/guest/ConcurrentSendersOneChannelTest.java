package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Sixteen threads send on one TCP channel at once, messages of mixed sizes up to the maximum:
 * the receiver gets every message whole, and each thread's in the order it sent them.
 */
class ConcurrentSendersOneChannelTest {
    private static final int THREADS = 16;
    private static final int PER_THREAD = 300;
    private static final int MAX_MESSAGE = 64 * 1024;
    /** Sender number, sequence number, length: the rest is a pattern of all three. */
    private static final int HEADER = 12;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    @Test
    void everyThreadsMessagesArriveWholeAndInItsOrder() throws Exception {
        CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
        ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.TCP).loop(loop)
                .maxMessageSize(MAX_MESSAGE);
        try (ChannelPair pair = ChannelPair.open(config, config)) {
            Receiver receiver = new Receiver();
            pair.server().setListener(receiver);
            ExecutorService senders = Executors.newFixedThreadPool(THREADS);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<List<CompletableFuture<Void>>>> sending = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int sender = t;
                    sending.add(senders.submit(() -> send(pair.client(), sender, start)));
                }
                start.countDown();
                for (Future<List<CompletableFuture<Void>>> f : sending) {
                    for (CompletableFuture<Void> sent : f.get(60, TimeUnit.SECONDS)) {
                        sent.get(60, TimeUnit.SECONDS);
                    }
                }
            } finally {
                senders.shutdownNow();
            }
            assertTrue(receiver.all.await(60, TimeUnit.SECONDS),
                    "messages received: " + (THREADS * PER_THREAD - receiver.all.getCount()));
            assertEquals(List.of(), receiver.faults);
        }
    }

    /** One thread's messages, sent as fast as the channel takes them; the futures to wait for. */
    private static List<CompletableFuture<Void>> send(Channel channel, int sender, CountDownLatch start)
            throws InterruptedException {
        Random random = new Random(sender);
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        start.await();
        for (int seq = 0; seq < PER_THREAD; seq++) {
            // small ones mostly, and now and then one of up to the maximum (written in parts)
            int length = HEADER + (random.nextInt(8) == 0 ? random.nextInt(MAX_MESSAGE - HEADER + 1)
                    : random.nextInt(256));
            sent.add(channel.send(message(sender, seq, length)));
        }
        return sent;
    }

    private static MemorySegment message(int sender, int seq, int length) {
        MemorySegment m = MemorySegment.ofArray(new byte[length]);
        m.set(INT, 0, sender);
        m.set(INT, 4, seq);
        m.set(INT, 8, length);
        for (int i = HEADER; i < length; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, patternByte(sender, seq, i));
        }
        return m;
    }

    private static byte patternByte(int sender, int seq, int i) {
        return (byte) (sender * 131 + seq * 7 + i);
    }

    /** Checks each message on the loop's thread: whole, and next in its sender's order. */
    private static final class Receiver implements ChannelListener {
        final CountDownLatch all = new CountDownLatch(THREADS * PER_THREAD);
        final List<String> faults = new ArrayList<>();
        private final int[] next = new int[THREADS];

        @Override
        public void onMessage(Channel channel, ChannelMessage message) {
            String fault = check(message.data());
            if (fault != null) {
                synchronized (faults) {
                    faults.add(fault);
                }
            }
            all.countDown();
        }

        private String check(MemorySegment m) {
            if (m.byteSize() < HEADER) {
                return "a message of " + m.byteSize() + " bytes, shorter than its header";
            }
            int sender = m.get(INT, 0), seq = m.get(INT, 4), length = m.get(INT, 8);
            if (sender < 0 || sender >= THREADS) {
                return "a message from no sender (" + sender + ")";
            }
            if (length != m.byteSize()) {
                return "sender " + sender + " message " + seq + ": " + m.byteSize() + " bytes of " + length;
            }
            if (seq != next[sender]) {
                return "sender " + sender + ": message " + seq + " where " + next[sender] + " was next";
            }
            next[sender]++;
            for (int i = HEADER; i < length; i++) {
                if (m.get(ValueLayout.JAVA_BYTE, i) != patternByte(sender, seq, i)) {
                    return "sender " + sender + " message " + seq + ": byte " + i + " is wrong";
                }
            }
            return null;
        }
    }
}
