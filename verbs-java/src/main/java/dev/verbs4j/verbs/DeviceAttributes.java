package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_device_attr;
import java.lang.foreign.MemorySegment;

/**
 * The limits and capabilities from {@code ibv_query_device} ({@code struct ibv_device_attr}), as
 * {@link Context#queryDevice()} returns them. An immutable value, safe to share. Counts are per
 * device, shared by all processes using it.
 *
 * @param firmwareVersion   firmware version string ({@code fw_ver}), e.g. "2.42.5000"; empty if none
 * @param nodeGuid          node GUID in host byte order
 * @param maxMrSize         largest registrable region in bytes, a uint64: compare it with
 *                          {@link Long#compareUnsigned} (rxe reports UINT64_MAX, which reads as -1)
 * @param vendorId          IEEE OUI of the vendor (0x15ad for VMware)
 * @param vendorPartId      the vendor's part number
 * @param hardwareVersion   hardware revision
 * @param maxQp             most QPs the device supports
 * @param maxQpWr           most outstanding work requests per queue of a QP
 * @param deviceCapFlags    IBV_DEVICE_* capability bits
 * @param maxSge            most scatter/gather entries per send or receive request
 * @param maxSgeRd          most scatter/gather entries per RDMA read request
 * @param maxCq             most CQs
 * @param maxCqe            most entries per CQ
 * @param maxMr             most memory regions
 * @param maxPd             most protection domains
 * @param maxQpRdAtom       most RDMA reads/atomics a QP accepts as target at once (max_dest_rd_atomic limit)
 * @param maxQpInitRdAtom   most RDMA reads/atomics a QP issues at once (max_rd_atomic limit)
 * @param atomicCapability  IBV_ATOMIC_* level; {@link #ATOMIC_NONE} means no atomics
 * @param maxAh             most address handles
 * @param maxSrq            most shared receive queues; 0 when the device has none
 * @param maxSrqWr          most work requests per SRQ
 * @param maxSrqSge         most scatter/gather entries per SRQ receive
 * @param maxPkeys          size of each port's P_Key table
 * @param physicalPortCount number of ports, numbered from 1
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

    /**
     * Whether the device does compare-and-swap and fetch-and-add.
     *
     * @return false when {@code atomicCapability} is {@link #ATOMIC_NONE}
     */
    public boolean supportsAtomics() {
        return atomicCapability != ATOMIC_NONE;
    }

    /**
     * Whether the device has shared receive queues.
     *
     * @return true when {@code maxSrq > 0}
     */
    public boolean supportsSrq() {
        return maxSrq > 0;
    }
}
