package dev.verbs4j.examples;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The -c buffer check of the pingpong programs: the client marks the first byte of every page of
 * its buffer with {@code i / page_size % sizeof(char)} before the first send and, at the end,
 * reports each page whose first byte differs ("invalid data in page N").
 */
final class PagePattern {
    static final int PAGE_SIZE = 4096;

    private PagePattern() {}

    /** The byte the C programs expect at the start of page {@code page}: (page % sizeof(char)), so 0. */
    static byte expected(int page) {
        return (byte) (page % 1);
    }

    static void mark(MemorySegment buffer, long offset, int size) {
        for (int i = 0; i < size; i += PAGE_SIZE) {
            buffer.set(ValueLayout.JAVA_BYTE, offset + i, expected(i / PAGE_SIZE));
        }
    }

    static List<Integer> invalidPages(MemorySegment buffer, long offset, int size) {
        List<Integer> bad = new ArrayList<>();
        for (int i = 0; i < size; i += PAGE_SIZE) {
            if (buffer.get(ValueLayout.JAVA_BYTE, offset + i) != expected(i / PAGE_SIZE)) {
                bad.add(i / PAGE_SIZE);
            }
        }
        return bad;
    }
}
