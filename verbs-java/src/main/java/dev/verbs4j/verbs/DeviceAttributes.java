package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_device_attr;
import java.lang.foreign.MemorySegment;

/**
 * The limits and capabilities from {@code ibv_query_device}. {@code maxMrSize} is a uint64
 * (rxe reports UINT64_MAX, which reads as -1 here): compare it with {@link Long#compareUnsigned}.
 */
public record DeviceAttributes(
        String firmwareVersion, long nodeGuid, long maxMrSize, int vendorId, int vendorPartId,
        int hardwareVersion, int maxQp, int maxQpWr, int deviceCapFlags, int maxSge, int maxSgeRd,
        int maxCq, int maxCqe, int maxMr, int maxPd, int maxQpRdAtom, int maxQpInitRdAtom,
        int atomicCapability, int maxAh, int maxSrq, int maxSrqWr, int maxSrqSge, int maxPkeys,
        int physicalPortCount) {

    /** IBV_ATOMIC_NONE: the device cannot do compare-and-swap / fetch-and-add. */
    public static final int ATOMIC_NONE = 0;

    static DeviceAttributes from(MemorySegment a) {
        return new DeviceAttributes(
                ibv_device_attr.fw_ver(a).getString(0), Long.reverseBytes(ibv_device_attr.node_guid(a)),
                ibv_device_attr.max_mr_size(a), ibv_device_attr.vendor_id(a), ibv_device_attr.vendor_part_id(a),
                ibv_device_attr.hw_ver(a), ibv_device_attr.max_qp(a), ibv_device_attr.max_qp_wr(a),
                ibv_device_attr.device_cap_flags(a), ibv_device_attr.max_sge(a), ibv_device_attr.max_sge_rd(a),
                ibv_device_attr.max_cq(a), ibv_device_attr.max_cqe(a), ibv_device_attr.max_mr(a),
                ibv_device_attr.max_pd(a), ibv_device_attr.max_qp_rd_atom(a),
                ibv_device_attr.max_qp_init_rd_atom(a), ibv_device_attr.atomic_cap(a), ibv_device_attr.max_ah(a),
                ibv_device_attr.max_srq(a), ibv_device_attr.max_srq_wr(a), ibv_device_attr.max_srq_sge(a),
                Short.toUnsignedInt(ibv_device_attr.max_pkeys(a)), Byte.toUnsignedInt(ibv_device_attr.phys_port_cnt(a)));
    }

    public boolean supportsAtomics() {
        return atomicCapability != ATOMIC_NONE;
    }

    public boolean supportsSrq() {
        return maxSrq > 0;
    }
}
