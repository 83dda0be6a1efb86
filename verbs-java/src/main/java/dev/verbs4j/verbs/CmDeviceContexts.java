package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_context;
import dev.verbs4j.bindings.ibv_device;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The device contexts librdmacm opens (one per device per process, shared by all its ids), each
 * seen as one borrowed {@link Context} so PDs and CQs made through any id of a device share it.
 */
final class CmDeviceContexts {
    private static final Map<Long, Context> CONTEXTS = new ConcurrentHashMap<>();

    private CmDeviceContexts() {}

    static Context of(MemorySegment verbs) {
        return CONTEXTS.compute(verbs.address(), (address, known) ->
                known != null && !known.isClosed() ? known : Context.borrowed(verbs, describe(verbs)));
    }

    private static DeviceInfo describe(MemorySegment verbs) {
        MemorySegment device = ibv_context.device(verbs.reinterpret(ibv_context.sizeof())).reinterpret(ibv_device.sizeof());
        String name = Rdma.ibv_get_device_name(device).getString(0);
        long guid = Long.reverseBytes(Rdma.ibv_get_device_guid(device)); // __be64 on the wire
        return new DeviceInfo(name, guid, ibv_device.node_type(device), ibv_device.transport_type(device));
    }
}
