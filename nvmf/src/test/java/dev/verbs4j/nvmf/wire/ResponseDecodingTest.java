package dev.verbs4j.nvmf.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.nvmf.types.ConnectRejectedException;
import dev.verbs4j.nvmf.types.ControllerIdentity;
import dev.verbs4j.nvmf.types.DiscoveryEntry;
import dev.verbs4j.nvmf.types.HostNotAllowedException;
import dev.verbs4j.nvmf.types.InvalidNamespaceException;
import dev.verbs4j.nvmf.types.LbaOutOfRangeException;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.nvmf.types.NvmeStatus;
import dev.verbs4j.nvmf.types.NvmeStatusException;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CQE, status codes, Identify and the discovery log page, decoded from bytes laid out as the spec places them. */
class ResponseDecodingTest {

    private static MemorySegment bytes(String hex) {
        return MemorySegment.ofArray(HexFormat.of().parseHex(hex));
    }

    @Test
    void cqeFieldsAndStatusWithoutPhase() {
        // DW0 0x00010100, DW1 0, SQHD 5, SQID 1, CID 0x0203, status: DNR | SCT 1 | SC 0x82 | phase
        MemorySegment c = bytes("00010100" + "00000000" + "0500" + "0100" + "0302" + "0583");
        assertEquals(0x0203, Cqe.cid(c, 0));
        assertEquals(0x00010100, Cqe.result(c, 0));
        int status = Cqe.status(c, 0);
        assertEquals(0x82, Cqe.statusCode(status));
        assertEquals(1, Cqe.statusCodeType(status));
        assertTrue(Cqe.doNotRetry(status));
        assertEquals(0, Cqe.status(bytes("00".repeat(14) + "0100"), 0), "phase bit alone is success");
    }

    @Test
    void statusesBecomeNamedExceptions() {
        assertInstanceOf(LbaOutOfRangeException.class, StatusDecoder.exception("Read", 0x4080, 0, false));
        assertInstanceOf(InvalidNamespaceException.class, StatusDecoder.exception("Read", 0x400B, 0, false));
        ConnectRejectedException r = assertInstanceOf(ConnectRejectedException.class,
                StatusDecoder.exception("Connect", 0x4182, 0x00010100L, true));
        assertTrue(r.unknownSubsystem());
        assertTrue(r.getMessage().contains("no subsystem with this NQN"), r.getMessage());
        assertInstanceOf(HostNotAllowedException.class, StatusDecoder.exception("Connect", 0x4184, 0x10200, true));
        NvmeStatusException other = StatusDecoder.exception("Write", 0x0281, 0, false);
        assertEquals(NvmeStatus.UNRECOVERED_READ_ERROR, other.status());
        assertFalse(other.doNotRetry());
        assertEquals(NvmeStatus.UNKNOWN, NvmeStatus.of(7, 0xEE));
        assertEquals(NvmeStatus.KEEP_ALIVE_EXPIRED, NvmeStatus.of(0, 0x19));
    }

    @Test
    void identifyControllerFieldsAtTheirOffsets() {
        MemorySegment d = MemorySegment.ofArray(new byte[4096]);
        Le.put16(d, 0, 0x1B36);
        Le.putAscii(d, 4, 21, "SERIAL0123456789ABCD");
        d.asSlice(24, 40).fill((byte) ' ');
        Le.putAscii(d, 24, 6, "Linux");
        d.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 29, (byte) ' ');
        Le.putAscii(d, 64, 8, "6.1.0");
        Le.put8(d, 77, 8);
        Le.put16(d, 78, 3);
        Le.put32(d, 80, 0x00010300);
        Le.put16(d, 320, 1);
        Le.put16(d, 514, 128);
        Le.put32(d, 516, 1024);
        Le.put32(d, 536, 0x00100005);
        Le.putAscii(d, 768, 256, "nqn.2026-11.dev.verbs4j:rig");
        Le.put32(d, 1792, 260);
        Le.put32(d, 1796, 1);
        Le.put16(d, 1800, 0);
        Le.put8(d, 1803, 1);
        ControllerIdentity id = IdentifyData.controller(d);
        assertEquals(new ControllerIdentity(0x1B36, "SERIAL0123456789ABCD", "Linux", "6.1.0", 8, 3, 0x00010300, 1,
                128, 1024, 0x00100005, "nqn.2026-11.dev.verbs4j:rig", 4160, 16, 0, 1), id);
        assertEquals(4096, id.inCapsuleDataSize());
        assertEquals(1 << 20, id.maxTransferBytes(4096));
    }

    @Test
    void identifyNamespaceTakesTheFormatInUse() {
        MemorySegment d = MemorySegment.ofArray(new byte[4096]);
        Le.put64(d, 0, 524288);
        Le.put64(d, 8, 524288);
        Le.put64(d, 16, 1000);
        Le.put8(d, 25, 1);                       // two formats
        Le.put8(d, 26, 1);                       // FLBAS: format 1
        Le.put32(d, 128, 9 << 16);               // LBAF0: 512 B
        Le.put32(d, 132, 12 << 16 | 8);          // LBAF1: 4 KiB, 8 B metadata
        NamespaceIdentity ns = IdentifyData.namespace(1, d);
        assertEquals(new NamespaceIdentity(1, 524288, 524288, 1000, 1, 4096, 8, 2), ns);
        assertEquals(2L << 30, ns.sizeBytes());
    }

    @Test
    void discoveryLogEntriesAtTheirOffsets() {
        MemorySegment p = MemorySegment.ofArray(new byte[1024 + 2 * 1024]);
        Le.put64(p, 0, 9);
        Le.put64(p, 8, 2);
        for (int i = 0; i < 2; i++) {
            long e = 1024 + i * 1024L;
            Le.put8(p, e, 1);
            Le.put8(p, e + 1, 1);
            Le.put8(p, e + 2, i == 0 ? 3 : 2);
            Le.put8(p, e + 3, 0);
            Le.put16(p, e + 4, 1);
            Le.put16(p, e + 6, 0xFFFF);
            Le.put16(p, e + 8, 32);
            Le.putAscii(p, e + 32, 32, "4420");
            Le.putAscii(p, e + 256, 256, i == 0 ? "nqn.2014-08.org.nvmexpress.discovery" : "nqn.x:rig");
            Le.putAscii(p, e + 512, 256, "10.77.0.1");
            Le.put8(p, e + 768, 1);
            Le.put8(p, e + 769, 1);
            Le.put8(p, e + 770, 1);
        }
        assertEquals(9, DiscoveryLog.generation(p));
        List<DiscoveryEntry> entries = DiscoveryLog.entries(p);
        assertEquals(2, entries.size());
        assertEquals(new DiscoveryEntry(1, 1, 2, 0, 1, 0xFFFF, 32, "4420", "nqn.x:rig", "10.77.0.1", 1, 1, 1),
                entries.get(1));
        assertEquals("current discovery subsystem", entries.get(0).subsystemTypeName());
        assertEquals("rdma", entries.get(1).transportName());
        Le.put64(p, 8, 5);
        assertEquals(2, DiscoveryLog.entries(p).size(), "never past the page read");
    }
}
