package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.connect.QueueConnector;
import dev.verbs4j.nvmf.controller.AdminChannel;
import dev.verbs4j.nvmf.controller.CmEventWatcher;
import dev.verbs4j.nvmf.controller.ControllerRegisters;
import dev.verbs4j.nvmf.controller.IoQueue;
import dev.verbs4j.nvmf.controller.KeepAliveTimer;
import dev.verbs4j.nvmf.queue.NvmfQueue;
import dev.verbs4j.nvmf.types.ControllerIdentity;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.wire.Fabrics;
import dev.verbs4j.nvmf.wire.IdentifyData;
import dev.verbs4j.nvmf.wire.Opcodes;
import dev.verbs4j.nvmf.wire.Properties;
import dev.verbs4j.nvmf.wire.Sgl;
import dev.verbs4j.verbs.CmEventChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The connect sequence and what it made, owned until {@link #close}: the admin queue (connected,
 * then CAP read, CC.EN set, Identify Controller), the I/O queues, the keep-alive timer and the
 * completion loop of the progress thread, on the rdma_cm event channel and shared verbs objects
 * of its {@link Reconnector}, which outlive it (a reconnect makes a new one on them). A failure
 * part-way closes what was made; {@link #close} takes it all down in the reverse order. The first
 * failure of any of its queues (a completion in error, a Keep Alive unanswered, rdma_cm's word that
 * the connection or its device is gone) is handed to {@code onBroken}.
 */
final class ControllerConnection {
    private static final int ADMIN_QUEUE_SIZE = 32;     // NVME_AQ_DEPTH, what nvmet accepts at most
    private static final long DEFAULT_MAX_TRANSFER = 1 << 20;
    private static final Duration BROKEN_DISCONNECT = Duration.ofSeconds(1);

    final NvmfConnectOptions options;
    final ControllerResources resources;
    final AdminChannel admin;
    final IoQueues io;
    final long cap;
    final int cc;
    final int controllerId;
    final ControllerIdentity identity;
    final long maxTransferBytes;
    private KeepAliveTimer keepAlive;
    private CmEventWatcher cmEvents;
    /** Set when rdma_cm reported the RDMA device removed: no reconnect can use it again. */
    private volatile boolean deviceRemoved;
    private volatile ControllerLoop loop;
    /** Set by the first close: AutoCloseable asks a second one to do nothing (the arenas refuse a second close). */
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Enables and identifies the controller behind a connected admin queue. */
    private ControllerConnection(NvmfConnectOptions o, ControllerResources resources, NvmfQueue adminQueue,
                                 int controllerId, Consumer<NvmfException> onBroken) {
        this.options = o;
        this.resources = resources;
        adminQueue.onFailure(onBroken);
        this.controllerId = controllerId;
        this.admin = new AdminChannel(adminQueue, resources.connectData(), o.timeout());
        this.cap = admin.propertyGet(Properties.CAP, true);
        this.cc = ControllerRegisters.enable(admin, cap, o.timeout().toNanos());
        this.identity = IdentifyData.controller(admin.identify(Opcodes.CNS_CONTROLLER, 0));
        long mdts = identity.maxTransferBytes(Properties.minPageSize(cap));
        this.maxTransferBytes = Math.min(mdts == 0 ? DEFAULT_MAX_TRANSFER : mdts, Sgl.MAX_KEYED_LENGTH + 1L - 4096);
        this.io = new IoQueues(o.isDiscovery() ? 0 : o.ioQueues());
    }

    /**
     * Connects the admin queue, enables and identifies the controller, connects the I/O queues,
     * starts the timers. {@code holder} takes over asynchronous commands the transport fails
     * (null: they fail); {@code onBroken} hears of the first queue failure.
     */
    static ControllerConnection open(NvmfConnectOptions o, CmEventChannel channel, ControllerResources resources,
                                     IoQueue.CommandHolder holder, Consumer<NvmfException> onBroken) {
        ControllerConnection c = null;
        NvmfQueue adminQueue = null;
        try {
            QueueConnector connector = new QueueConnector(channel, o.hostAddress(), o.target(), o.timeout());
            int kato = o.isDiscovery() ? 0 : (int) o.keepAlive().toMillis();
            QueueConnector.Connected a = connector.connect(0, ADMIN_QUEUE_SIZE, resources, o.hostId(), o.hostNqn(),
                    o.subsystemNqn(), Fabrics.CNTLID_DYNAMIC, kato);
            adminQueue = a.queue();
            c = new ControllerConnection(o, resources, adminQueue, a.controllerId(), onBroken);
            int size = Math.min(o.queueSize(), Properties.maxQueueEntries(c.cap));
            for (int q = 0; q < c.io.count(); q++) {
                QueueConnector.Connected ioq = connector.connect(q + 1, size, resources, o.hostId(), o.hostNqn(),
                        o.subsystemNqn(), c.controllerId, kato);
                ioq.queue().onFailure(onBroken);
                c.io.set(q, new IoQueue(ioq.queue(), c.identity.inCapsuleDataSize(), holder));
            }
            if (kato > 0) {
                c.keepAlive = new KeepAliveTimer(c.admin, o.keepAlive(), o.subsystemNqn(), c::fail);
            }
            c.cmEvents = new CmEventWatcher(channel, c.queues(), o.target().getAddress().getHostAddress() + ":"
                    + o.target().getPort(), c::cmBroken);
            if (o.progressThread() && c.io.count() > 0) {
                c.loop = ControllerLoop.start(o.completionMode(), o.progressSpin(), c.io, resources.events());
            }
            return c;
        } catch (RuntimeException e) {
            if (c != null) {
                c.close(false);
            } else if (adminQueue != null) {
                adminQueue.close(o.timeout());
            }
            throw e;
        }
    }

    private List<NvmfQueue> queues() {
        List<NvmfQueue> all = new ArrayList<>();
        all.add(admin.queue());
        for (int q = 0; q < io.count(); q++) {
            all.add(io.get(q).queue());
        }
        return all;
    }

    private void cmBroken(NvmfException cause, boolean removed) {
        deviceRemoved |= removed;
        fail(cause);
    }

    /** Whether rdma_cm reported the connection's RDMA device removed. */
    boolean deviceRemoved() {
        return deviceRemoved;
    }

    /** The completion loop that takes the I/O queues' completions, or null when the caller polls. */
    ControllerLoop loop() {
        return loop;
    }

    /** Breaks the controller: every waiting and later command fails with {@code cause}. */
    void fail(NvmfException cause) {
        admin.queue().markFailed(cause);
        io.markFailed(cause);
        ControllerLoop l = loop;
        if (l != null) {
            l.failInFlight();
        }
    }

    /** Why the controller is broken (keep-alive, transport), or null while it works. */
    NvmfException failure() {
        NvmfException f = admin.queue().failure();
        return f != null ? f : io.failure();
    }

    /**
     * Stops the completion loop and the keep-alive timer, shuts the controller down (CC.SHN) when
     * {@code shutdown} and the target answers, disconnects every queue and fails what they had in
     * flight (the holder takes over what it can); the shared verbs objects stay. Closing again
     * does nothing.
     */
    void close(boolean shutdown) {
        close(shutdown, options.timeout());
    }

    /** Takes down a connection the transport broke: its peer is gone or going, so no disconnect waits long. */
    void closeBroken() {
        close(false, options.timeout().compareTo(BROKEN_DISCONNECT) < 0 ? options.timeout() : BROKEN_DISCONNECT);
    }

    private void close(boolean shutdown, Duration t) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        ControllerLoop l = loop;
        if (l != null) {
            l.stop();
        }
        if (keepAlive != null) {
            keepAlive.close();
        }
        if (cmEvents != null) {
            cmEvents.close();
        }
        if (shutdown) {
            try {
                ControllerRegisters.shutdown(admin, cc, options.timeout().toNanos());
            } catch (RuntimeException ignored) {
                // the target went away: nothing left to shut down
            }
        }
        io.close(t);
        admin.queue().close(t);
        io.failInFlight();
    }
}
