package dev.verbs4j.nvmf.wire;

import java.lang.foreign.MemorySegment;

/**
 * The RDMA transport's rdma_cm private data (NVMe/RDMA transport binding): the host's request
 * (32 bytes: RECFMT 0, QID, HRQSIZE, HSQSIZE, CNTLID), the target's accept (RECFMT, CRQSIZE) and
 * reject (RECFMT, STS). HRQSIZE is the host's receive queue size; HSQSIZE is the host's submission
 * queue size, 0's based as in the Connect command (the Linux host and target agree: hsqsize + 1
 * commands may be outstanding).
 */
public final class RdmaCmData {
    public static final int REQUEST_SIZE = 32;

    /** Reject statuses the target returns (the binding's "RDMA_CM_REJECT" STS values). */
    public static final int REJECT_INVALID_LENGTH = 1;
    public static final int REJECT_INVALID_RECFMT = 2;
    public static final int REJECT_INVALID_QID = 3;
    public static final int REJECT_INVALID_HSQSIZE = 4;
    public static final int REJECT_INVALID_HRQSIZE = 5;
    public static final int REJECT_NO_RESOURCES = 6;
    public static final int REJECT_INVALID_IRD = 7;
    public static final int REJECT_INVALID_ORD = 8;

    private RdmaCmData() {
    }

    public static byte[] request(int qid, int queueSize) {
        MemorySegment s = MemorySegment.ofArray(new byte[REQUEST_SIZE]);
        Le.put16(s, 0, 0);
        Le.put16(s, 2, qid);
        Le.put16(s, 4, queueSize);
        Le.put16(s, 6, queueSize - 1);
        Le.put16(s, 8, 0);
        return (byte[]) s.heapBase().orElseThrow();
    }

    /** The target's receive queue size from its accept data, or -1 when it sent none. */
    public static int acceptedQueueSize(byte[] accept) {
        return accept.length < 4 ? -1 : Le.u16(MemorySegment.ofArray(accept), 2);
    }

    /** The STS of a reject, or -1 when the reject carries no NVMe/RDMA data. */
    public static int rejectStatus(byte[] reject) {
        return reject.length < 4 ? -1 : Le.u16(MemorySegment.ofArray(reject), 2);
    }

    public static String describeReject(int sts) {
        return switch (sts) {
            case REJECT_INVALID_LENGTH -> "invalid private data length";
            case REJECT_INVALID_RECFMT -> "invalid record format";
            case REJECT_INVALID_QID -> "invalid queue id";
            case REJECT_INVALID_HSQSIZE -> "invalid host submission queue size";
            case REJECT_INVALID_HRQSIZE -> "invalid host receive queue size";
            case REJECT_NO_RESOURCES -> "no resources on the target";
            case REJECT_INVALID_IRD -> "invalid IRD";
            case REJECT_INVALID_ORD -> "invalid ORD";
            default -> "status " + sts;
        };
    }
}
