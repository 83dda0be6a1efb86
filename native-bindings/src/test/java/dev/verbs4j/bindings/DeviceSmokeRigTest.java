package dev.verbs4j.bindings;

import static java.lang.foreign.MemorySegment.NULL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Device, port, GID table, PD, MR and CQ on a real (soft-RoCE) device, through the generated
 * bindings alone. Runs only inside the rig: {@code ci/rig run mvn -B -o -P rig -pl native-bindings surefire:test}.
 */
@Tag("rdma")
class DeviceSmokeRigTest {

    private static final String DEVICE = System.getenv().getOrDefault("RIG_DEVICE", "rxe0");
    private static final byte PORT = 1;
    private static final long MR_LENGTH = 1L << 20;
    private static final int CQ_ENTRIES = 16;
    private static final long PID = ProcessHandle.current().pid();

    @Test
    void openQueryRegisterAndReleaseThroughTheGeneratedBindings() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(Rdma.C_INT);
            MemorySegment list = Rdma.ibv_get_device_list(count);
            List<MemorySegment> devices = DeviceList.entries(list, count.get(Rdma.C_INT, 0));
            assertFalse(devices.isEmpty(), "the RDMA rig is not up: ibv_get_device_list found no devices "
                    + "(expected " + DEVICE + "); run this test through ci/rig");
            List<String> names = devices.stream().map(DeviceList::name).toList();
            System.out.println("devices: " + names);
            assertTrue(names.contains(DEVICE), DEVICE + " is not among " + names);
            MemorySegment device = devices.get(names.indexOf(DEVICE));

            MemorySegment context = Rdma.ibv_open_device(device);
            assertNotEquals(0, context.address(), "ibv_open_device(" + DEVICE + ")");
            System.out.println("resources before: " + RdmaResources.summary());

            printDeviceAttributes(arena, context);
            int gidTableLength = checkPortIsActive(arena, context);
            printGidTable(arena, context, gidTableLength);

            MemorySegment pd = Rdma.ibv_alloc_pd(context);
            assertNotEquals(0, pd.address(), "ibv_alloc_pd");
            MemorySegment buffer = arena.allocate(MR_LENGTH, 4096);
            int access = Rdma.IBV_ACCESS_LOCAL_WRITE() | Rdma.IBV_ACCESS_REMOTE_READ() | Rdma.IBV_ACCESS_REMOTE_WRITE();
            MemorySegment mr = Rdma.ibv_reg_mr(pd, buffer, MR_LENGTH, access);
            assertNotEquals(0, mr.address(), "ibv_reg_mr");
            checkMemoryRegion(mr, buffer);
            MemorySegment cq = Rdma.ibv_create_cq(context, CQ_ENTRIES, NULL, NULL, 0);
            assertNotEquals(0, cq.address(), "ibv_create_cq");
            assertTrue(ibv_cq.cqe(cq) >= CQ_ENTRIES, "cqe " + ibv_cq.cqe(cq));

            Map<String, Integer> held = RdmaResources.ownedByThisProcess(DEVICE);
            System.out.println("resources held by this process: " + held);
            assertEquals(Map.of("pd", 1, "mr", 1, "cq", 1, "qp", 0), held,
                    "objects of this process (pid " + PID + ") in\n" + RdmaResources.listings());

            assertEquals(0, Rdma.ibv_destroy_cq(cq), "ibv_destroy_cq");
            assertEquals(0, Rdma.ibv_dereg_mr(mr), "ibv_dereg_mr");
            assertEquals(0, Rdma.ibv_dealloc_pd(pd), "ibv_dealloc_pd");
            assertEquals(0, Rdma.ibv_close_device(context), "ibv_close_device");
            Rdma.ibv_free_device_list(list);

            Map<String, Integer> left = RdmaResources.ownedByThisProcess(DEVICE);
            System.out.println("resources after cleanup: " + left + "; " + RdmaResources.summary());
            assertEquals(Map.of("pd", 0, "mr", 0, "cq", 0, "qp", 0), left,
                    "objects of this process (pid " + PID + ") left behind in\n" + RdmaResources.listings());
        }
    }

    private static void printDeviceAttributes(Arena arena, MemorySegment context) {
        MemorySegment attr = ibv_device_attr.allocate(arena);
        assertEquals(0, Rdma.ibv_query_device(context, attr), "ibv_query_device");
        System.out.printf("device %s: fw_ver=%s vendor_id=0x%x max_qp=%d max_cq=%d max_cqe=%d max_mr=%d max_mr_size=%s max_pd=%d phys_port_cnt=%d%n",
                DEVICE, ibv_device_attr.fw_ver(attr).getString(0), ibv_device_attr.vendor_id(attr),
                ibv_device_attr.max_qp(attr), ibv_device_attr.max_cq(attr), ibv_device_attr.max_cqe(attr),
                ibv_device_attr.max_mr(attr), Long.toUnsignedString(ibv_device_attr.max_mr_size(attr)),
                ibv_device_attr.max_pd(attr), ibv_device_attr.phys_port_cnt(attr));
        assertTrue(ibv_device_attr.max_qp(attr) > 0, "max_qp");
        // uint64_t: soft-RoCE reports UINT64_MAX, which is negative as a Java long
        assertTrue(Long.compareUnsigned(ibv_device_attr.max_mr_size(attr), MR_LENGTH) >= 0, "max_mr_size");
    }

    /** The generated ibv_query_port is the compat export; it fills the old prefix of a zeroed full struct. */
    private static int checkPortIsActive(Arena arena, MemorySegment context) {
        MemorySegment port = ibv_port_attr.allocate(arena);
        assertEquals(0, Rdma.ibv_query_port(context, PORT, port), "ibv_query_port");
        int state = ibv_port_attr.state(port);
        System.out.printf("port %d: state=%d active_mtu=%d gid_tbl_len=%d link_layer=%d%n", PORT, state,
                ibv_port_attr.active_mtu(port), ibv_port_attr.gid_tbl_len(port), ibv_port_attr.link_layer(port));
        assertEquals(Rdma.IBV_PORT_ACTIVE(), state, "port " + PORT + " state (IBV_PORT_ACTIVE expected)");
        assertTrue(ibv_port_attr.gid_tbl_len(port) > 0, "gid_tbl_len");
        return ibv_port_attr.gid_tbl_len(port);
    }

    /** GIDs from index 0 up to the first empty (all-zero) entry, with their type from _ibv_query_gid_ex. */
    private static void printGidTable(Arena arena, MemorySegment context, int length) {
        MemorySegment gid = ibv_gid.allocate(arena);
        MemorySegment entry = ibv_gid_entry.allocate(arena);
        int found = 0;
        for (int index = 0; index < length; index++) {
            assertEquals(0, Rdma.ibv_query_gid(context, PORT, index, gid), "ibv_query_gid " + index);
            byte[] raw = ibv_gid.raw(gid).toArray(Rdma.C_CHAR);
            if (isZero(raw)) {
                break;
            }
            assertEquals(0, Rdma._ibv_query_gid_ex(context, PORT, index, entry, 0, ibv_gid_entry.sizeof()),
                    "_ibv_query_gid_ex " + index);
            assertTrue(ibv_gid_entry.gid(entry).mismatch(gid) == -1, "both queries agree on GID " + index);
            System.out.printf("gid[%d] %s type=%s%n", index, formatGid(raw), gidTypeName(ibv_gid_entry.gid_type(entry)));
            found++;
        }
        assertTrue(found > 0, "no GID on port " + PORT);
    }

    private static void checkMemoryRegion(MemorySegment mr, MemorySegment buffer) {
        System.out.printf("mr: addr=0x%x length=%d lkey=0x%x rkey=0x%x%n", ibv_mr.addr(mr).address(),
                ibv_mr.length(mr), ibv_mr.lkey(mr), ibv_mr.rkey(mr));
        assertNotEquals(0, ibv_mr.lkey(mr), "lkey");
        assertNotEquals(0, ibv_mr.rkey(mr), "rkey");
        assertEquals(buffer.address(), ibv_mr.addr(mr).address(), "mr addr");
        assertEquals(MR_LENGTH, ibv_mr.length(mr), "mr length");
    }

    private static boolean isZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static String formatGid(byte[] raw) {
        String hex = HexFormat.of().formatHex(raw);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 4) {
            text.append(i == 0 ? "" : ":").append(hex, i, i + 4);
        }
        return text.toString();
    }

    private static String gidTypeName(int type) {
        if (type == Rdma.IBV_GID_TYPE_IB()) {
            return "IB";
        }
        if (type == Rdma.IBV_GID_TYPE_ROCE_V1()) {
            return "RoCEv1";
        }
        return type == Rdma.IBV_GID_TYPE_ROCE_V2() ? "RoCEv2" : Integer.toString(type);
    }
}
