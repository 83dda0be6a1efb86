package dev.verbs4j.nvmf.wire;

import java.lang.foreign.MemorySegment;
import java.util.UUID;

/**
 * Fabrics commands (opcode 0x7F, command type at byte 4) and the Connect command's 1024-byte data
 * (NVMe over Fabrics spec, "Connect Command and Response", "Property Get/Set").
 */
public final class Fabrics {
    public static final int OPCODE = 0x7F;
    public static final int FCTYPE = 4;
    public static final int TYPE_PROPERTY_SET = 0x00;
    public static final int TYPE_CONNECT = 0x01;
    public static final int TYPE_PROPERTY_GET = 0x04;

    // Connect SQE: record format at 40, queue id at 42, SQ size (0's based) at 44, attributes at 46, KATO (ms) at 48
    public static final int CONNECT_RECFMT = 40;
    public static final int CONNECT_QID = 42;
    public static final int CONNECT_SQSIZE = 44;
    public static final int CONNECT_CATTR = 46;
    public static final int CONNECT_KATO = 48;

    // Connect data: host id 0-15, controller id 16-17, subsystem NQN 256-511, host NQN 512-767
    public static final int CONNECT_DATA_SIZE = 1024;
    public static final int DATA_HOSTID = 0;
    public static final int DATA_CNTLID = 16;
    public static final int DATA_SUBNQN = 256;
    public static final int DATA_HOSTNQN = 512;
    public static final int NQN_FIELD = 256;
    /** "allocate any controller" in the admin queue's Connect. */
    public static final int CNTLID_DYNAMIC = 0xFFFF;

    // Property Get/Set SQE: attributes at 40 (bits 2:0: 0 = 4 bytes, 1 = 8 bytes), offset at 44, value at 48
    public static final int PROPERTY_ATTRIB = 40;
    public static final int PROPERTY_OFFSET = 44;
    public static final int PROPERTY_VALUE = 48;

    private Fabrics() {
    }

    public static void connect(MemorySegment s, long at, int cid, int qid, int queueSize, int keepAliveMillis) {
        Sqe.begin(s, at, OPCODE, cid, 0);
        Le.put8(s, at + FCTYPE, TYPE_CONNECT);
        Le.put16(s, at + CONNECT_RECFMT, 0);
        Le.put16(s, at + CONNECT_QID, qid);
        Le.put16(s, at + CONNECT_SQSIZE, queueSize - 1);
        Le.put8(s, at + CONNECT_CATTR, 0);
        Le.put32(s, at + CONNECT_KATO, keepAliveMillis);
    }

    public static void connectData(MemorySegment d, long at, UUID hostId, int controllerId, String subsystemNqn,
                                   String hostNqn) {
        d.asSlice(at, CONNECT_DATA_SIZE).fill((byte) 0);
        Le.put64(d, at + DATA_HOSTID, Long.reverseBytes(hostId.getMostSignificantBits()));
        Le.put64(d, at + DATA_HOSTID + 8, Long.reverseBytes(hostId.getLeastSignificantBits()));
        Le.put16(d, at + DATA_CNTLID, controllerId);
        Le.putAscii(d, at + DATA_SUBNQN, NQN_FIELD, subsystemNqn);
        Le.putAscii(d, at + DATA_HOSTNQN, NQN_FIELD, hostNqn);
    }

    public static void propertyGet(MemorySegment s, long at, int cid, int offset, boolean eightBytes) {
        Sqe.begin(s, at, OPCODE, cid, 0);
        Le.put8(s, at + FCTYPE, TYPE_PROPERTY_GET);
        Le.put8(s, at + PROPERTY_ATTRIB, eightBytes ? 1 : 0);
        Le.put32(s, at + PROPERTY_OFFSET, offset);
    }

    public static void propertySet(MemorySegment s, long at, int cid, int offset, boolean eightBytes, long value) {
        Sqe.begin(s, at, OPCODE, cid, 0);
        Le.put8(s, at + FCTYPE, TYPE_PROPERTY_SET);
        Le.put8(s, at + PROPERTY_ATTRIB, eightBytes ? 1 : 0);
        Le.put32(s, at + PROPERTY_OFFSET, offset);
        Le.put64(s, at + PROPERTY_VALUE, value);
    }
}
