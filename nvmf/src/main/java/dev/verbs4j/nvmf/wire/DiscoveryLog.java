package dev.verbs4j.nvmf.wire;

import dev.verbs4j.nvmf.types.DiscoveryEntry;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The discovery log page: a 1024-byte header (GENCTR 0-7, NUMREC 8-15, RECFMT 16-17) followed by
 * 1024-byte entries (TRTYPE 0, ADRFAM 1, SUBTYPE 2, TREQ 3, PORTID 4, CNTLID 6, ASQSZ 8,
 * TRSVCID 32-63, SUBNQN 256-511, TRADDR 512-767, TSAS 768-1023).
 */
public final class DiscoveryLog {
    public static final int HEADER_SIZE = 1024;
    public static final int ENTRY_SIZE = 1024;

    private DiscoveryLog() {
    }

    public static long generation(MemorySegment page) {
        return Le.u64(page, 0);
    }

    public static long recordCount(MemorySegment page) {
        return Le.u64(page, 8);
    }

    /** The entries held in {@code page} (at most as many as fit in it). */
    public static List<DiscoveryEntry> entries(MemorySegment page) {
        long fit = (page.byteSize() - HEADER_SIZE) / ENTRY_SIZE;
        int n = (int) Math.min(recordCount(page), fit);
        List<DiscoveryEntry> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long e = HEADER_SIZE + (long) i * ENTRY_SIZE;
            out.add(new DiscoveryEntry(Le.u8(page, e), Le.u8(page, e + 1), Le.u8(page, e + 2), Le.u8(page, e + 3),
                    Le.u16(page, e + 4), Le.u16(page, e + 6), Le.u16(page, e + 8), Le.ascii(page, e + 32, 32),
                    Le.ascii(page, e + 256, 256), Le.ascii(page, e + 512, 256), Le.u8(page, e + 768),
                    Le.u8(page, e + 769), Le.u8(page, e + 770)));
        }
        return out;
    }
}
