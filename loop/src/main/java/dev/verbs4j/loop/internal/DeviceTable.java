package dev.verbs4j.loop.internal;

import dev.verbs4j.verbs.CompletionQueue;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/** The devices a loop opened for its transports, one per name, open until the loop stops. Any thread. */
final class DeviceTable {
    private final Map<String, OpenDevice> devices = new HashMap<>();
    private final Consumer<CompletionQueue> onEvent;
    private boolean closed;

    DeviceTable(Consumer<CompletionQueue> onEvent) {
        this.onEvent = onEvent;
    }

    /** The open device, and whether this call opened it (the caller then watches its fd). */
    record Lookup(OpenDevice device, boolean opened) {}

    synchronized Lookup open(String name) {
        if (closed) {
            throw new RejectedExecutionException("the completion loop is stopped");
        }
        OpenDevice device = devices.get(name);
        if (device != null) {
            return new Lookup(device, false);
        }
        device = new OpenDevice(name, onEvent);
        devices.put(name, device);
        return new Lookup(device, true);
    }

    synchronized void closeAll() {
        closed = true;
        for (OpenDevice d : devices.values()) {
            DefaultEngine.closeQuietly(d);
        }
        devices.clear();
    }
}
