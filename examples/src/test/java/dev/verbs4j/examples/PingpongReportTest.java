package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PingpongReportTest {
    /** The patterns the interop tests apply to both the C and the Java output. */
    static final Pattern BYTES_LINE = Pattern.compile("^(\\d+) bytes in (\\d+\\.\\d\\d) seconds = (\\d+\\.\\d\\d) Mbit/sec$");
    static final Pattern ITERS_LINE = Pattern.compile("^(\\d+) iters in (\\d+\\.\\d\\d) seconds = (\\d+\\.\\d\\d) usec/iter$");

    @Test
    void summaryLinesInTheCFormat() {
        // 4096 bytes x 1000 iters x 2 in 0.5 s
        assertEquals("8192000 bytes in 0.50 seconds = 131.07 Mbit/sec", PingpongReport.bytesLine(4096, 1000, 500_000));
        assertEquals("1000 iters in 0.50 seconds = 500.00 usec/iter", PingpongReport.itersLine(1000, 500_000));
        assertTrue(BYTES_LINE.matcher(PingpongReport.bytesLine(1, 1, 3)).matches());
        assertTrue(ITERS_LINE.matcher(PingpongReport.itersLine(7, 123_457)).matches());
    }

    @Test
    void roundsLikeGlibcPrintf() {
        assertEquals("0.12", PingpongReport.fixed2(0.125)); // exact tie: to even
        assertEquals("0.38", PingpongReport.fixed2(0.375));
        assertEquals("2.67", PingpongReport.fixed2(2.675)); // 2.67499999... in binary
    }

    @Test
    void pagePatternMarksAndChecksFirstBytes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(3 * PagePattern.PAGE_SIZE + 100);
            buf.fill((byte) 0x7b);
            PagePattern.mark(buf, 0, (int) buf.byteSize());
            assertEquals(List.of(), PagePattern.invalidPages(buf, 0, (int) buf.byteSize()));
            buf.set(ValueLayout.JAVA_BYTE, 2 * PagePattern.PAGE_SIZE, (byte) 1);
            assertEquals(List.of(2), PagePattern.invalidPages(buf, 0, (int) buf.byteSize()));
        }
    }
}
