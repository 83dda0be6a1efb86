package dev.verbs4j.nvmf.wire;

import dev.verbs4j.nvmf.types.ControllerIdentity;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import java.lang.foreign.MemorySegment;

/** Parses the 4096-byte Identify Controller and Identify Namespace data structures (byte offsets from the spec). */
public final class IdentifyData {
    private IdentifyData() {
    }

    public static ControllerIdentity controller(MemorySegment d) {
        return new ControllerIdentity(
                Le.u16(d, 0),                 // VID
                Le.ascii(d, 4, 20),           // SN
                Le.ascii(d, 24, 40),          // MN
                Le.ascii(d, 64, 8),           // FR
                Le.u8(d, 77),                 // MDTS
                Le.u16(d, 78),                // CNTLID
                Le.u32(d, 80),                // VER
                Le.u16(d, 320),               // KAS
                Le.u16(d, 514),               // MAXCMD
                Integer.toUnsignedLong(Le.u32(d, 516)),   // NN
                Le.u32(d, 536),               // SGLS
                Le.ascii(d, 768, 256),        // SUBNQN
                Le.u32(d, 1792) * 16,         // IOCCSZ (16-byte units)
                Le.u32(d, 1796) * 16,         // IORCSZ
                Le.u16(d, 1800),              // ICDOFF
                Le.u8(d, 1803));              // MSDBD
    }

    public static NamespaceIdentity namespace(int nsid, MemorySegment d) {
        int flbas = Le.u8(d, 26) & 0xF;
        int lbaf = Le.u32(d, 128 + 4 * flbas);    // LBAF[n]: MS 15:0, LBADS 23:16, RP 25:24
        int lbads = (lbaf >>> 16) & 0xFF;
        return new NamespaceIdentity(nsid, Le.u64(d, 0), Le.u64(d, 8), Le.u64(d, 16), flbas,
                lbads == 0 ? 0 : 1 << lbads, lbaf & 0xFFFF, Le.u8(d, 25) + 1);
    }
}
