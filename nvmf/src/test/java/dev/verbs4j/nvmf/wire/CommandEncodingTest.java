package dev.verbs4j.nvmf.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** SQE, SGL, Fabrics command and rdma_cm private data layouts, byte by byte at the spec's offsets. */
class CommandEncodingTest {
    private static final HexFormat HEX = HexFormat.of();

    private static MemorySegment zeroed(int size) {
        return MemorySegment.ofArray(new byte[size]);
    }

    private static String hex(MemorySegment s, long from, int length) {
        return HEX.formatHex(s.asSlice(from, length).toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void readSqeHasOpcodeSglFlagCidNsidSlbaAndZeroBasedBlockCount() {
        MemorySegment s = zeroed(128);
        s.fill((byte) 0x5A);
        Sqe.begin(s, 64, Opcodes.NVM_READ, 0x1234, 1);
        Sqe.lbaRange(s, 64, 0x0102030405L, 8);
        assertEquals("5a5a", hex(s, 62, 2), "the entry before is untouched");
        assertEquals("02" + "40" + "3412" + "01000000", hex(s, 64, 8));
        assertEquals("0504030201000000", hex(s, 64 + 40, 8), "SLBA, CDW10-11, little-endian");
        assertEquals("07000000", hex(s, 64 + 48, 4), "NLB is 0's based");
        assertEquals("00".repeat(16), hex(s, 64 + 24, 16), "DPTR zeroed");
    }

    @Test
    void keyedSglDataBlockPacksA24BitLengthAndTheKey() {
        MemorySegment s = zeroed(16);
        Sgl.keyed(s, 0, 0x1122334455667788L, 0x0A0B0C, 0xCAFEBABE);
        assertEquals("8877665544332211" + "0c0b0a" + "bebafeca" + "40", hex(s, 0, 16));
        assertEquals(0x0A0B0C, Sgl.keyedLength(s, 0));
        assertThrows(IllegalArgumentException.class, () -> Sgl.keyed(s, 0, 0, 1 << 24, 0));
    }

    @Test
    void inCapsuleSglIsADataBlockWithOffsetSubtype() {
        MemorySegment s = zeroed(16);
        Sgl.inCapsule(s, 0, 0, 4096);
        assertEquals("0000000000000000" + "00100000" + "000000" + "01", hex(s, 0, 16));
    }

    @Test
    void connectSqeCarriesQueueIdZeroBasedSqSizeAndKato() {
        MemorySegment s = zeroed(64);
        Fabrics.connect(s, 0, 7, 3, 128, 15000);
        assertEquals("7f" + "40" + "0700" + "01", hex(s, 0, 5));
        assertEquals("0000" + "0300" + "7f00" + "00" + "00" + "983a0000", hex(s, 40, 12));
    }

    @Test
    void connectDataPutsHostIdCntlidAndNqnsAtTheirOffsets() {
        MemorySegment d = zeroed(1024);
        d.fill((byte) 0x77);
        UUID host = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
        Fabrics.connectData(d, 0, host, 0xFFFF, "nqn.sub", "nqn.host");
        assertEquals("00112233445566778899aabbccddeeff", hex(d, 0, 16), "host id in UUID byte order");
        assertEquals("ffff", hex(d, 16, 2));
        assertEquals("00".repeat(238), hex(d, 18, 238));
        assertEquals("6e716e2e73756200", hex(d, 256, 8));
        assertEquals("6e716e2e686f737400", hex(d, 512, 9));
        assertEquals("00".repeat(256), hex(d, 768, 256));
        assertThrows(IllegalArgumentException.class,
                () -> Fabrics.connectData(d, 0, host, 1, "n".repeat(256), "nqn.host"));
    }

    @Test
    void propertyGetAndSetAddressTheRegisterBySizeAndOffset() {
        MemorySegment s = zeroed(64);
        Fabrics.propertyGet(s, 0, 1, Properties.CAP, true);
        assertEquals("04", hex(s, 4, 1));
        assertEquals("01", hex(s, 40, 1));
        assertEquals("00000000", hex(s, 44, 4));
        Fabrics.propertySet(s, 0, 2, Properties.CC, false, 0x00460001);
        assertEquals("7f400200" + "00", hex(s, 0, 5));
        assertEquals("00", hex(s, 40, 1));
        assertEquals("14000000", hex(s, 44, 4));
        assertEquals("0100460000000000", hex(s, 48, 8));
        assertEquals(0x00460000, Properties.CC_QUEUE_ENTRY_SIZES);
    }

    @Test
    void rdmaCmRequestIsRecfmtQidHrqsizeHsqsize() {
        byte[] b = RdmaCmData.request(2, 128);
        assertEquals(32, b.length);
        assertArrayEquals(HEX.parseHex("0000" + "0200" + "8000" + "7f00" + "00".repeat(24)), b);
        assertEquals(5, RdmaCmData.rejectStatus(HEX.parseHex("00000500")));
        assertEquals(-1, RdmaCmData.rejectStatus(new byte[0]));
        assertEquals(32, RdmaCmData.acceptedQueueSize(HEX.parseHex("00002000")));
    }

    @Test
    void getLogPageCountsDwordsZeroBased() {
        assertEquals(0x70 | 1023 << 16, Opcodes.getLogPageCdw10(Opcodes.LOG_DISCOVERY, 4096));
        assertEquals(0, Opcodes.getLogPageCdw11(4096));
        assertEquals(0x0003, Opcodes.getLogPageCdw11(1 << 20));
    }

    @Test
    void capabilitiesFields() {
        long cap = 0x1E01_03FFL;                 // MQES 1023, TO 30 (x 500 ms), MPSMIN 0
        assertEquals(1024, Properties.maxQueueEntries(cap));
        assertEquals(15_000, Properties.readyTimeoutMillis(cap));
        assertEquals(4096, Properties.minPageSize(cap));
        assertEquals(16384, Properties.minPageSize(2L << 48));
    }
}
