package dev.verbs4j.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The generated bindings on a host without RDMA devices (or without kernel RDMA support at all). */
class NoDeviceBindingsTest {

    @Test
    void nullDeviceListMeansNoDevices() {
        assertEquals(List.of(), DeviceList.entries(MemorySegment.NULL, 0));
        assertEquals(List.of(), DeviceList.entries(MemorySegment.NULL, 3)); // count is meaningless without a list
    }

    @Test
    void getDeviceListWithoutDevicesIsEmptyAndDoesNotCrash() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(Rdma.C_INT);
            count.set(Rdma.C_INT, 0, -1);

            MemorySegment list = Rdma.ibv_get_device_list(count);
            int numDevices = count.get(Rdma.C_INT, 0);
            List<MemorySegment> devices = DeviceList.entries(list, numDevices);
            System.out.printf("ibv_get_device_list: %s, num_devices=%d -> %d devices%n",
                    list.address() == 0 ? "NULL" : "list", numDevices, devices.size());
            if (list.address() != 0) {
                Rdma.ibv_free_device_list(list);
            }

            if (kernelRdmaDevices() == 0) {
                assertTrue(devices.isEmpty(), "no RDMA device in /sys/class/infiniband, yet devices were listed");
                assertTrue(numDevices <= 0, "num_devices=" + numDevices);
            } else {
                assertEquals(numDevices, devices.size()); // a host with devices: at least consistent
            }
        }
    }

    private static long kernelRdmaDevices() throws IOException {
        Path devices = Path.of("/sys/class/infiniband");
        if (!Files.isDirectory(devices)) {
            return 0;
        }
        try (Stream<Path> entries = Files.list(devices)) {
            return entries.count();
        }
    }
}
