package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** What memory a receive buffer accepts: the loop's thread must be able to copy a message into it. */
class ReceiveBufferTest {

    @Test
    void memoryConfinedToOneThreadIsRefusedUpFront() {
        try (Arena confined = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ReceiveBuffer(confined.allocate(64)));
            assertTrue(e.getMessage().contains("not a confined one"), e.getMessage());
        }
    }

    @Test
    void readOnlyMemoryIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new ReceiveBuffer(MemorySegment.ofArray(new byte[64]).asReadOnly()));
    }

    @Test
    void heapSharedAndAutomaticMemoryAreTaken() {
        try (Arena shared = Arena.ofShared()) {
            for (MemorySegment m : new MemorySegment[] {MemorySegment.ofArray(new byte[64]), shared.allocate(64),
                    Arena.ofAuto().allocate(64)}) {
                ReceiveBuffer b = new ReceiveBuffer(m);
                b.fill(MemorySegment.ofArray(new byte[] {1, 2, 3}), 1, 2, true, 9);
                assertEquals(2, b.length());
                assertEquals(3, b.message().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 1));
                assertEquals(9, b.immediate());
            }
        }
    }
}
