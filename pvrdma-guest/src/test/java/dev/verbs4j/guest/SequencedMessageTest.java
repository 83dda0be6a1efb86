package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The kill test's messages catch each way a message can arrive wrong. */
class SequencedMessageTest {
    private static final int MAX = 4096;

    private static MemorySegment message(int channel, int sequence) {
        MemorySegment m = MemorySegment.ofArray(new byte[MAX]);
        SequencedMessage.write(m, channel, sequence, MAX);
        return m;
    }

    @Test
    void theMessageItselfPassesAndSizesAreMixed() {
        for (int i = 0; i < 50; i++) {
            int size = SequencedMessage.size(i, MAX);
            assertTrue(size >= SequencedMessage.HEADER && size <= MAX, "size " + size);
            assertNull(SequencedMessage.check(message(3, i), size, 3, i, MAX));
        }
        assertEquals(MAX, SequencedMessage.size(4, MAX));
        assertEquals(3, SequencedMessage.channelOf(message(3, 0), SequencedMessage.size(0, MAX)));
    }

    @Test
    void aCutTornRepeatedOrForeignMessageIsNamed() {
        int size = SequencedMessage.size(7, MAX);
        assertTrue(SequencedMessage.check(message(3, 7), size - 1, 3, 7, MAX).contains("bytes, sent"));
        assertTrue(SequencedMessage.check(message(3, 7), 10, 3, 7, MAX).contains("shorter than the header"));
        MemorySegment torn = message(3, 7);
        torn.set(ValueLayout.JAVA_BYTE, size - 1, (byte) (torn.get(ValueLayout.JAVA_BYTE, size - 1) + 1));
        assertTrue(SequencedMessage.check(torn, size, 3, 7, MAX).contains("checksum"));
        assertTrue(SequencedMessage.check(message(3, 6), SequencedMessage.size(6, MAX), 3, 7, MAX)
                .contains("expected message 7 of channel 3, got message 6"));
        assertTrue(SequencedMessage.check(message(4, 7), size, 3, 7, MAX).contains("of channel 4"));
    }
}
