package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_ah_attr;
import dev.verbs4j.bindings.rdma_ud_param;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;

/**
 * {@code struct rdma_ud_param}: how to reach the peer of a datagram (UDP port space) id, reported
 * with ESTABLISHED and MULTICAST_JOIN. An immutable value (arrays are copied in and out).
 *
 * @param privateData             the peer's private data (may be zero-padded)
 * @param qpNumber                the remote QP number to send to
 * @param qkey                    the Q_Key to send with
 * @param addressHandleAttributes the raw {@code struct ibv_ah_attr} to create an address handle
 *                                for the peer from
 */
public record CmDatagramParameters(byte[] privateData, int qpNumber, int qkey, byte[] addressHandleAttributes) {

    /**
     * Copies both arrays.
     *
     * @throws NullPointerException if an array is null
     */
    public CmDatagramParameters {
        privateData = privateData.clone();
        addressHandleAttributes = addressHandleAttributes.clone();
    }

    /**
     * The peer's private data.
     *
     * @return a fresh copy (may be zero-padded)
     */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * The raw {@code struct ibv_ah_attr} to create an address handle for the peer from.
     *
     * @return a fresh copy, {@code sizeof(struct ibv_ah_attr)} bytes
     */
    @Override
    public byte[] addressHandleAttributes() {
        return addressHandleAttributes.clone();
    }

    static CmDatagramParameters fromNative(MemorySegment param) {
        int length = Byte.toUnsignedInt(rdma_ud_param.private_data_len(param));
        byte[] data = CmNative.copyBytes(rdma_ud_param.private_data(param), length);
        byte[] ah = rdma_ud_param.ah_attr(param).asSlice(0, ibv_ah_attr.sizeof()).toArray(ValueLayout.JAVA_BYTE);
        return new CmDatagramParameters(data, rdma_ud_param.qp_num(param), rdma_ud_param.qkey(param), ah);
    }

    @Override
    public String toString() {
        return "CmDatagramParameters[privateData=" + HexFormat.of().formatHex(privateData) + ", qpNumber="
                + qpNumber + ", qkey=0x" + Integer.toHexString(qkey) + "]";
    }
}
