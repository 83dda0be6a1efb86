package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A region above 2 GiB: lengths, offsets and remote addresses past 2^31 must survive every int on
 * the way (SGE offsets, remote addresses, the MR length). Needs about 2.1 GiB of guest memory.
 */
@Tag("rdma")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LargeMemoryRegionRigTest {
    private static final long SIZE = (2L << 30) + (64 << 10);
    /** Well past 2^31 and not page aligned, so a truncation to 32 bits lands somewhere else. */
    private static final long HIGH = (1L << 31) + 40_000;
    private static final int LENGTH = 333;

    @Test
    void rdmaWriteAndReadBeyondTwoGibibytes() {
        // the arena is closed last: the region is deregistered (with l) before its memory is freed
        try (Arena bigArena = Arena.ofShared();
             QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            MemorySegment big = bigArena.allocate(SIZE, 4096);
            MemoryRegion bigMr = l.track(l.pd.register(big, Access.ALL_REMOTE));
            assertEquals(SIZE, bigMr.length());
            assertTrue(bigMr.length() > Integer.MAX_VALUE, bigMr.toString());
            // how much room the guest has left (RIG_MEM): this test is the rig's biggest user of memory
            System.out.printf("registered %d bytes: %s; guest %s%n", SIZE, bigMr, memAvailable());

            byte[] pattern = new byte[LENGTH];
            for (int i = 0; i < LENGTH; i++) {
                pattern[i] = (byte) (0x5a ^ i * 13);
            }
            MemorySegment.copy(pattern, 0, l.bufA, ValueLayout.JAVA_BYTE, 0, LENGTH);

            // small MR (QP a) → big MR at 2 GiB + x (remote side, QP b)
            PreparedSend write = l.track(l.a.prepareSend(1, 1));
            write.opcode(0, SendOpcode.RDMA_WRITE).sge(0, 0, l.mrA, 0, LENGTH)
                    .remote(bigMr.address() + HIGH, bigMr.rkey()).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(1);
            write.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the RDMA write above 2 GiB");
            assertArrayEquals(pattern, big.asSlice(HIGH, LENGTH).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(0, big.get(ValueLayout.JAVA_BYTE, HIGH - 1), "nothing before the target");
            assertEquals(0, big.get(ValueLayout.JAVA_BYTE, HIGH + LENGTH), "nothing after it");
            assertEquals(0, big.get(ValueLayout.JAVA_BYTE, HIGH - (1L << 31)),
                    "not at the offset truncated to 31 bits");

            // read it back into the small MR, from the big one
            PreparedSend read = l.track(l.a.prepareSend(1, 1));
            read.opcode(0, SendOpcode.RDMA_READ).sge(0, 0, l.mrA, 2048, LENGTH)
                    .remote(bigMr.address() + HIGH, bigMr.rkey()).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(2);
            read.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the RDMA read above 2 GiB");
            assertEquals(LENGTH, wc.byteLength(0));
            assertArrayEquals(pattern, l.bufA.asSlice(2048, LENGTH).toArray(ValueLayout.JAVA_BYTE));

            // and with the big MR as the local side: an SGE offset past 2^31 (lkey of the big MR)
            long localHigh = SIZE - 4096;
            PreparedSend readLocal = l.track(l.a.prepareSend(1, 1));
            readLocal.opcode(0, SendOpcode.RDMA_READ).sge(0, 0, bigMr, localHigh, LENGTH)
                    .remote(bigMr.address() + HIGH, bigMr.rkey()).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(3);
            readLocal.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the RDMA read into the big MR past 2 GiB");
            assertArrayEquals(pattern, big.asSlice(localHigh, LENGTH).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    private static String memAvailable() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(line -> line.startsWith("MemAvailable"))
                    .findFirst().orElse("MemAvailable unknown").replaceAll("\\s+", " ");
        } catch (IOException e) {
            return "MemAvailable unknown (" + e + ")";
        }
    }
}
