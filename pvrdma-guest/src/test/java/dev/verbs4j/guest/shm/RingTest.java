package dev.verbs4j.guest.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.unix.EventFd;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * One ring, its writer and its reader in one thread, over many laps of records of every size
 * (so records meet the ring's end at every offset, with padding and with rests too short for a
 * header): every record comes out whole and in order, and the reader's published position is
 * always one the writer accepts.
 */
class RingTest {

    @Test
    void recordsOfEverySizeLapTheRingWholeAndInOrder() {
        int max = 200;
        try (Arena arena = Arena.ofConfined(); EventFd wake = new EventFd()) {
            MemorySegment data = arena.allocate(4096, 64), control = arena.allocate(512, 128);
            RingWriter writer = new RingWriter(data, control, wake);
            RingReader reader = new RingReader(data, control, max, wake);
            Random random = new Random(7);
            ArrayDeque<Integer> written = new ArrayDeque<>();
            int next = 0, read = 0;
            while (read < 20_000) {
                int length = random.nextInt(max + 1);
                long at = writer.claim(length);
                if (at >= 0) {
                    data.asSlice(at + ShmRecord.HEADER, length).fill((byte) next);
                    writer.commit(at, length, ShmRecord.MESSAGE, next, 0);
                    written.add(length);
                    next++;
                }
                if (at < 0 || random.nextInt(3) == 0) {
                    int type;
                    while ((type = reader.next()) != RingReader.NONE) {
                        assertEquals(ShmRecord.MESSAGE, type);
                        int expected = written.poll();
                        assertEquals(expected, reader.bodyLength());
                        assertEquals(read, reader.immediate());
                        if (expected > 0) {
                            assertEquals((byte) read, data.get(ValueLayout.JAVA_BYTE, reader.bodyAt() + expected - 1));
                        }
                        read++;
                        reader.advance();
                    }
                    reader.publish();
                    assertTrue(writer.readHead() <= writer.tail(), "the published position is one the writer accepts");
                }
            }
        }
    }
}
