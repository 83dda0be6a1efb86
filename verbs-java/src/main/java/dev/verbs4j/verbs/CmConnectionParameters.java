package dev.verbs4j.verbs;

import dev.verbs4j.bindings.rdma_conn_param;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * {@code struct rdma_conn_param}: what is sent with connect/accept, and what a connect request or
 * an established connection reports about the peer. An immutable value (the private data is copied
 * in and out), safe to share between threads.
 *
 * @param privateData        bytes passed to the peer; received data may be longer than what was
 *                           sent, padded with zeros (the transport fixes the message size)
 * @param responderResources RDMA reads/atomics the local side accepts from the peer at once, 0..255
 * @param initiatorDepth     RDMA reads/atomics the local side issues to the peer at once, 0..255
 * @param flowControl        whether hardware flow control is available
 * @param retryCount         transport retries on timeout, 0..7
 * @param rnrRetryCount      retries after receiver-not-ready, 0..7 (7 = retry forever)
 * @param srq                whether the QP uses a shared receive queue (only without a CM QP)
 * @param qpNumber           the QP number (only without a CM QP; reported by connect requests)
 */
public record CmConnectionParameters(byte[] privateData, int responderResources, int initiatorDepth,
                                     boolean flowControl, int retryCount, int rnrRetryCount, boolean srq,
                                     int qpNumber) {

    /**
     * Copies the private data (null means none) and checks the ranges.
     *
     * @throws IllegalArgumentException if the private data exceeds 255 bytes or a count is out of range
     */
    public CmConnectionParameters {
        privateData = privateData == null ? new byte[0] : privateData.clone();
        if (privateData.length > 255) {
            throw new IllegalArgumentException("private data is at most 255 bytes, got " + privateData.length);
        }
        requireRange("responderResources", responderResources, 255);
        requireRange("initiatorDepth", initiatorDepth, 255);
        requireRange("retryCount", retryCount, 7);
        requireRange("rnrRetryCount", rnrRetryCount, 7);
    }

    /**
     * One outstanding RDMA read each way, 7 retries of each kind, no private data.
     *
     * @return the defaults
     */
    public static CmConnectionParameters defaults() {
        return new CmConnectionParameters(new byte[0], 1, 1, false, 7, 7, false, 0);
    }

    /**
     * The private data.
     *
     * @return a fresh copy, possibly empty, never null
     */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * A copy with other private data. The port space limits it further at connect/accept time (TCP:
     * 56 bytes for connect, 196 for accept).
     *
     * @param data the bytes for the peer, or null for none
     * @return the copy
     * @throws IllegalArgumentException if {@code data} exceeds 255 bytes
     */
    public CmConnectionParameters withPrivateData(byte[] data) {
        return new CmConnectionParameters(data, responderResources, initiatorDepth, flowControl, retryCount,
                rnrRetryCount, srq, qpNumber);
    }

    /**
     * A copy with other RDMA read/atomic depths.
     *
     * @param responderResources reads/atomics accepted from the peer at once, 0..255
     * @param initiatorDepth     reads/atomics issued to the peer at once, 0..255
     * @return the copy
     * @throws IllegalArgumentException if a value is out of range
     */
    public CmConnectionParameters withRdmaReads(int responderResources, int initiatorDepth) {
        return new CmConnectionParameters(privateData, responderResources, initiatorDepth, flowControl, retryCount,
                rnrRetryCount, srq, qpNumber);
    }

    /**
     * A copy with other retry counts.
     *
     * @param retryCount    transport retries on timeout, 0..7
     * @param rnrRetryCount retries after receiver-not-ready, 0..7 (7 = forever)
     * @return the copy
     * @throws IllegalArgumentException if a value is out of range
     */
    public CmConnectionParameters withRetries(int retryCount, int rnrRetryCount) {
        return new CmConnectionParameters(privateData, responderResources, initiatorDepth, flowControl, retryCount,
                rnrRetryCount, srq, qpNumber);
    }

    /**
     * A copy with the flow-control flag set.
     *
     * @param flowControl whether hardware flow control is available
     * @return the copy
     */
    public CmConnectionParameters withFlowControl(boolean flowControl) {
        return new CmConnectionParameters(privateData, responderResources, initiatorDepth, flowControl, retryCount,
                rnrRetryCount, srq, qpNumber);
    }

    /** Writes a {@code struct rdma_conn_param}; the private data is copied into {@code allocator}'s memory. */
    MemorySegment toNative(SegmentAllocator allocator) {
        MemorySegment param = allocator.allocate(rdma_conn_param.layout());
        param.fill((byte) 0);
        if (privateData.length > 0) {
            rdma_conn_param.private_data(param, allocator.allocateFrom(ValueLayout.JAVA_BYTE, privateData));
            rdma_conn_param.private_data_len(param, (byte) privateData.length);
        }
        rdma_conn_param.responder_resources(param, (byte) responderResources);
        rdma_conn_param.initiator_depth(param, (byte) initiatorDepth);
        rdma_conn_param.flow_control(param, (byte) (flowControl ? 1 : 0));
        rdma_conn_param.retry_count(param, (byte) retryCount);
        rdma_conn_param.rnr_retry_count(param, (byte) rnrRetryCount);
        rdma_conn_param.srq(param, (byte) (srq ? 1 : 0));
        rdma_conn_param.qp_num(param, qpNumber);
        return param;
    }

    /** Copies a {@code struct rdma_conn_param}, including the private data it points to. */
    static CmConnectionParameters fromNative(MemorySegment param) {
        int length = Byte.toUnsignedInt(rdma_conn_param.private_data_len(param));
        byte[] data = CmNative.copyBytes(rdma_conn_param.private_data(param), length);
        return new CmConnectionParameters(data,
                Byte.toUnsignedInt(rdma_conn_param.responder_resources(param)),
                Byte.toUnsignedInt(rdma_conn_param.initiator_depth(param)),
                rdma_conn_param.flow_control(param) != 0,
                Byte.toUnsignedInt(rdma_conn_param.retry_count(param)) & 7,
                Byte.toUnsignedInt(rdma_conn_param.rnr_retry_count(param)) & 7,
                rdma_conn_param.srq(param) != 0,
                rdma_conn_param.qp_num(param) & 0xFFFFFF);
    }

    private static void requireRange(String name, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(name + " must be 0.." + max + ", got " + value);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CmConnectionParameters p && Arrays.equals(privateData, p.privateData)
                && responderResources == p.responderResources && initiatorDepth == p.initiatorDepth
                && flowControl == p.flowControl && retryCount == p.retryCount && rnrRetryCount == p.rnrRetryCount
                && srq == p.srq && qpNumber == p.qpNumber;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(privateData) * 31 + qpNumber;
    }

    @Override
    public String toString() {
        return "CmConnectionParameters[privateData=" + HexFormat.of().formatHex(privateData)
                + ", responderResources=" + responderResources + ", initiatorDepth=" + initiatorDepth
                + ", flowControl=" + flowControl + ", retryCount=" + retryCount + ", rnrRetryCount=" + rnrRetryCount
                + ", srq=" + srq + ", qpNumber=" + qpNumber + "]";
    }
}
