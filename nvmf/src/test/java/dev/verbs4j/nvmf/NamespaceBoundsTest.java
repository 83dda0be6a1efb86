package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.nvmf.types.LbaOutOfRangeException;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.nvmf.types.NvmeStatus;
import org.junit.jupiter.api.Test;

/** The host's range check against the namespace's size, before anything is sent. */
class NamespaceBoundsTest {
    /** 1000 blocks of 512 bytes: the last one is 999. */
    private static final NamespaceIdentity NS = new NamespaceIdentity(1, 1000, 1000, 0, 0, 512, 0, 1);

    @Test
    void rangesInsideTheNamespacePass() {
        assertDoesNotThrow(() -> NamespaceBounds.check("Read", NS, 0, 1));
        assertDoesNotThrow(() -> NamespaceBounds.check("Read", NS, 0, 1000));
        assertDoesNotThrow(() -> NamespaceBounds.check("Write", NS, 992, 8));   // ends on the last block
        assertDoesNotThrow(() -> NamespaceBounds.check("Write", NS, 999, 1));
    }

    @Test
    void aRangeThatCrossesTheEndNamesTheBlocksAndTheSize() {
        LbaOutOfRangeException e = assertThrows(LbaOutOfRangeException.class,
                () -> NamespaceBounds.check("Write", NS, 996, 8));
        assertEquals(NvmeStatus.LBA_OUT_OF_RANGE, e.status());
        assertEquals("Write", e.command());
        assertTrue(e.doNotRetry());
        assertTrue(e.getMessage().contains("blocks 996..1003 (count 8) are not all inside"), e::getMessage);
        assertTrue(e.getMessage().contains("namespace 1, which has 1000 blocks (0..999) of 512 bytes"), e::getMessage);
        assertTrue(e.getMessage().contains("not sent"), e::getMessage);
    }

    @Test
    void rangesWhollyPastTheEndAreRefused() {
        assertThrows(LbaOutOfRangeException.class, () -> NamespaceBounds.check("Read", NS, 1000, 1));
        assertThrows(LbaOutOfRangeException.class, () -> NamespaceBounds.check("Read", NS, 5000, 8));
        assertThrows(LbaOutOfRangeException.class, () -> NamespaceBounds.check("Read", NS, 0, 1001));
    }

    @Test
    void rangesThatWouldWrapAroundAreRefused() {
        LbaOutOfRangeException e = assertThrows(LbaOutOfRangeException.class,
                () -> NamespaceBounds.check("Read", NS, Long.MAX_VALUE, 8));
        assertTrue(e.getMessage().contains("blocks from " + Long.MAX_VALUE + " (count 8)"), e::getMessage);
        e = assertThrows(LbaOutOfRangeException.class, () -> NamespaceBounds.check("Read", NS, -1, 1));
        assertTrue(e.getMessage().contains("blocks from 18446744073709551615 (count 1)"), e::getMessage);
    }
}
