package dev.verbs4j.verbs;

/**
 * One entry of the device list (what {@code ibv_devices} prints). An immutable value, safe to share
 * between threads; it owns nothing native.
 *
 * @param name          kernel name, e.g. {@code rxe0} or {@code vmw_pvrdma0}
 * @param guid          node GUID in host byte order
 * @param nodeType      IBV_NODE_* value (1 = CA, 4 = RNIC)
 * @param transportType IBV_TRANSPORT_* value (0 = IB, 1 = iWARP)
 */
public record DeviceInfo(String name, long guid, int nodeType, int transportType) {
    /**
     * The node GUID as ibv_devices prints it.
     *
     * @return {@link #guid()} as 16 lower-case hex digits, zero-padded
     */
    public String guidHex() {
        return String.format("%016x", guid);
    }
}
