package dev.verbs4j.nvmf.controller;

import dev.verbs4j.nvmf.queue.NvmfQueue;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.verbs.CmEvent;
import dev.verbs4j.verbs.CmEventChannel;
import dev.verbs4j.verbs.CmEventType;
import dev.verbs4j.verbs.CmId;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Watches the rdma_cm events of a connection's established queues on a daemon thread, as the
 * kernel initiator's CM handler does: the target disconnecting (DISCONNECTED, as when its port or
 * device goes away), the local address changing (ADDR_CHANGE), the connection leaving timewait
 * (TIMEWAIT_EXIT) and the local RDMA device being removed (DEVICE_REMOVAL) break the connection at
 * once, where otherwise only the next Keep Alive or I/O would notice. Events of other ids (queues
 * being connected) stay on the channel for their waiters. It stops before its queues are
 * disconnected, so the DISCONNECTED of a disconnect reaches the disconnect.
 */
public final class CmEventWatcher implements AutoCloseable {
    private static final Set<CmEventType> BREAKING = Set.of(CmEventType.DISCONNECTED, CmEventType.ADDR_CHANGE,
            CmEventType.TIMEWAIT_EXIT, CmEventType.DEVICE_REMOVAL);

    /** What the watcher saw. */
    public interface Listener {
        /** A queue's connection broke ({@code deviceRemoved}: its RDMA device is going away). Called once. */
        void broken(NvmfException cause, boolean deviceRemoved);
    }

    private final CmEventChannel channel;
    private final Map<CmId, NvmfQueue> queues = new IdentityHashMap<>();
    private final Thread thread;
    private volatile boolean stopped;

    /**
     * Starts watching {@code watched}, whose ids are on {@code channel}.
     *
     * @param target the target's address as messages name it
     */
    public CmEventWatcher(CmEventChannel channel, List<NvmfQueue> watched, String target, Listener listener) {
        this.channel = channel;
        for (NvmfQueue q : watched) {
            queues.put(q.cmId(), q);
        }
        thread = Thread.ofPlatform().daemon().name("nvmf-cm-events " + target).unstarted(() -> {
            while (!stopped) {
                CmEvent e;
                try {
                    e = channel.nextMatching(ev -> !stopped && queues.containsKey(ev.id())
                            && BREAKING.contains(ev.type()), Duration.ofSeconds(10), () -> stopped);
                } catch (IllegalStateException interruptedOrClosed) {
                    return;
                }
                if (e != null) {
                    NvmfQueue q = queues.get(e.id());
                    q.peerGone(); // its DISCONNECTED was taken here: closing it must not wait for another
                    listener.broken(describe(e, q, target), e.type() == CmEventType.DEVICE_REMOVAL);
                    return;
                }
            }
        });
        thread.start();
    }

    private static NvmfException describe(CmEvent e, NvmfQueue q, String target) {
        String what = switch (e.type()) {
            case DISCONNECTED -> "the target disconnected";
            case DEVICE_REMOVAL -> "the RDMA device " + q.cmId().context().name() + " is being removed;"
                    + " it goes once the controller and its buffers are closed";
            case ADDR_CHANGE -> "the local address changed";
            default -> "the connection left timewait";
        };
        return new NvmfTransportException("queue " + q.qid() + " to " + target + ": rdma_cm reported "
                + e.describe() + " (" + what + ")");
    }

    /** Stops watching; its events from now on stay on the channel. */
    @Override
    public void close() {
        stopped = true;
        if (thread != Thread.currentThread()) {
            channel.wakeUp(); // after stopped is set: the wait ends whether it began before or after
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
