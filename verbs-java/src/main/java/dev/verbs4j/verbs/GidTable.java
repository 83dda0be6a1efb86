package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_gid_entry;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a port's populated GID entries with their types ({@code ibv_query_gid_table}). */
final class GidTable {
    private static final MethodHandle QUERY_GID_TABLE =
            NativeLibraries.verbs("_ibv_query_gid_table", Rdma._ibv_query_gid_table$descriptor());

    private GidTable() {}

    static List<GidEntry> read(Context context, int port) {
        int length = context.queryPort(port).gidTableLength();
        int ports = context.queryDevice().physicalPortCount();
        int capacity = Math.max(1, length * ports);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment entries = arena.allocate(ibv_gid_entry.layout(), capacity);
            long n = (long) QUERY_GID_TABLE.invokeExact(errno, context.pointer(), entries, (long) capacity, 0,
                    ibv_gid_entry.sizeof());
            if (n < 0) {
                Calls.checkStatus((int) n, errno, "_ibv_query_gid_table", "cannot read the GID table of " + context.name());
            }
            List<GidEntry> result = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                MemorySegment e = ibv_gid_entry.asSlice(entries, i);
                if (ibv_gid_entry.port_num(e) != port) {
                    continue;
                }
                int index = ibv_gid_entry.gid_index(e);
                byte[] gid = ibv_gid_entry.gid(e).toArray(ValueLayout.JAVA_BYTE);
                result.add(new GidEntry(port, index, gid, GidType.of(ibv_gid_entry.gid_type(e)),
                        netdev(context.name(), port, index)));
            }
            result.sort(java.util.Comparator.comparingInt(GidEntry::index));
            return List.copyOf(result);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /** sysfs names the GID's interface; ndev_ifindex alone would need another lookup. */
    private static String netdev(String device, int port, int index) {
        Path p = Path.of("/sys/class/infiniband", device, "ports", Integer.toString(port), "gid_attrs", "ndevs",
                Integer.toString(index));
        try {
            return Files.readString(p).trim();
        } catch (IOException e) {
            return "";
        }
    }
}
