package dev.verbs4j.bindings;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/** Reads the array returned by {@code ibv_get_device_list}. */
final class DeviceList {

    private DeviceList() {
    }

    /**
     * The {@code struct ibv_device *} entries of {@code list}. A kernel without RDMA support makes
     * ibv_get_device_list return NULL (errno ENOSYS) rather than an empty array; that means no devices.
     */
    static List<MemorySegment> entries(MemorySegment list, int count) {
        List<MemorySegment> devices = new ArrayList<>();
        if (list.address() == 0) {
            return devices;
        }
        for (int i = 0; i < count; i++) {
            devices.add(list.getAtIndex(Rdma.C_POINTER, i));
        }
        return devices;
    }

    static String name(MemorySegment device) {
        return Rdma.ibv_get_device_name(device).getString(0);
    }
}
