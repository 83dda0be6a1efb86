package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_device;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point: lists the RDMA devices of this host and opens one as a {@link Context}.
 *
 * <p>Stateless and thread-safe: every call reads the device list afresh ({@code ibv_get_device_list})
 * and frees it before returning. Loading this class checks fork safety once (see {@code ForkSafety}).
 * The {@link Context} a call opens belongs to the caller, who must close it after everything created
 * from it.
 */
public final class Verbs {
    private static final Logger LOG = LoggerFactory.getLogger(Verbs.class);
    private static final MethodHandle GET_DEVICE_LIST =
            NativeLibraries.verbs("ibv_get_device_list", Rdma.ibv_get_device_list$descriptor());
    private static final MethodHandle OPEN_DEVICE =
            NativeLibraries.verbs("ibv_open_device", Rdma.ibv_open_device$descriptor());

    static {
        ForkSafety.ensure();
    }

    private Verbs() {}

    /**
     * The devices visible to this process (in this network namespace). Empty when the kernel has
     * no RDMA support at all: libibverbs then returns NULL with ENOSYS, which means "no devices".
     *
     * @return an immutable snapshot of the device list, in libibverbs' order; never null
     */
    public static List<DeviceInfo> devices() {
        List<DeviceInfo> result = new ArrayList<>();
        withDeviceList((device, info) -> {
            result.add(info);
            return false;
        });
        return List.copyOf(result);
    }

    /**
     * Opens the device with this name ({@code ibv_open_device}); the error lists the devices that do
     * exist, and in exclusive netns mode says that devices of other namespaces are hidden.
     *
     * @param name the kernel device name, as {@link DeviceInfo#name()} gives it, e.g. {@code rxe0}
     * @return the open device; the caller owns it and closes it after every object created from it
     * @throws VerbsException with errno ENODEV if no visible device has this name, or with the
     *         verb's errno (EACCES, EPERM...) if it exists but cannot be opened
     */
    public static Context open(String name) {
        Context[] opened = new Context[1];
        withDeviceList((device, info) -> {
            if (!info.name().equals(name)) {
                return false;
            }
            opened[0] = openDevice(device, info);
            return true;
        });
        if (opened[0] == null) {
            throw NetnsDeviceHint.noSuchDevice(name, devices().stream().map(DeviceInfo::name).toList());
        }
        return opened[0];
    }

    /**
     * Opens the first device of {@link #devices()}, if there is one.
     *
     * @return the open device, owned by the caller (close it last), or empty when this host has none
     * @throws VerbsException if the device exists but cannot be opened (EAGAIN under an rdma cgroup
     *                         limit gives a {@link RdmaCgroupLimitException})
     */
    public static Optional<Context> openFirst() {
        List<DeviceInfo> all = devices();
        return all.isEmpty() ? Optional.empty() : Optional.of(open(all.getFirst().name()));
    }

    private interface DeviceVisitor {
        /** Returns true to stop. */
        boolean visit(MemorySegment device, DeviceInfo info);
    }

    private static void withDeviceList(DeviceVisitor visitor) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment list = (MemorySegment) GET_DEVICE_LIST.invokeExact(errno, count);
            if (list.equals(MemorySegment.NULL)) {
                int e = ErrnoCapture.read(errno);
                LOG.debug("ibv_get_device_list returned NULL ({}): no devices", Errno.name(e));
                return;
            }
            try {
                int n = count.get(ValueLayout.JAVA_INT, 0);
                MemorySegment array = list.reinterpret((long) n * ValueLayout.ADDRESS.byteSize());
                for (int i = 0; i < n; i++) {
                    MemorySegment device = array.getAtIndex(ValueLayout.ADDRESS, i).reinterpret(ibv_device.sizeof());
                    if (visitor.visit(device, describe(device))) {
                        return;
                    }
                }
            } finally {
                Rdma.ibv_free_device_list(list);
            }
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    private static DeviceInfo describe(MemorySegment device) {
        String name = Rdma.ibv_get_device_name(device).getString(0);
        long guid = Long.reverseBytes(Rdma.ibv_get_device_guid(device)); // __be64 on the wire
        return new DeviceInfo(name, guid, ibv_device.node_type(device), ibv_device.transport_type(device));
    }

    private static Context openDevice(MemorySegment device, DeviceInfo info) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment ctx = (MemorySegment) OPEN_DEVICE.invokeExact(errno, device);
            Calls.checkPointer(ctx, errno, "ibv_open_device", "cannot open RDMA device " + info.name());
            return new Context(ctx, info);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }
}
