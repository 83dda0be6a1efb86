package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.connect.QueueConnector;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CmId;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.ProtectionDomain;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The verbs objects one controller shares among its queues: the protection domain and the
 * registered admin data buffer (made when the admin queue's id has a device), the I/O queues'
 * completion channel (when something sleeps on their events), and the {@link IoBuffer}s registered
 * with that domain for the caller. Closed after every queue, in the reverse order.
 */
final class ControllerResources implements QueueConnector.QueueResources {
    /** The admin queue's data buffer: Identify, log pages and Connect data land here. */
    static final int ADMIN_DATA_BYTES = 64 * 1024;
    private static final Set<Access> REMOTE_ACCESS = Set.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);

    private final Arena arena = Arena.ofShared();
    private final boolean wantEvents;
    private final Set<IoBuffer> buffers = ConcurrentHashMap.newKeySet();
    private ProtectionDomain pd;
    private MemoryRegion data;
    private CompletionChannel events;

    ControllerResources(boolean wantEvents) {
        this.wantEvents = wantEvents;
    }

    @Override
    public ProtectionDomain protectionDomain(CmId id) {
        if (pd == null) {
            pd = id.context().allocateProtectionDomain();
            data = pd.register(arena.allocate(ADMIN_DATA_BYTES, 4096), REMOTE_ACCESS);
        } else if (pd.context() != id.context()) {
            throw new NvmfTransportException("the I/O queue's route goes through " + id.context().name()
                    + ", the admin queue's through " + pd.context().name());
        }
        return pd;
    }

    @Override
    public MemoryRegion connectData() {
        return data;
    }

    @Override
    public CompletionChannel ioCompletionEvents() {
        if (wantEvents && events == null) {
            events = pd.context().createCompletionChannel();
        }
        return events;
    }

    /** The I/O queues' completion channel, or null when nothing sleeps on their events. */
    CompletionChannel events() {
        return events;
    }

    /** Registered memory the target can read and write, page-aligned; closed by {@link #close()} if not before. */
    IoBuffer allocateBuffer(long bytes) {
        Arena bufferArena = Arena.ofShared();
        try {
            MemorySegment seg = bufferArena.allocate(bytes, 4096);
            MemoryRegion mr = pd.register(seg, REMOTE_ACCESS);
            IoBuffer b = new IoBuffer(bufferArena, seg, mr, buffers::remove);
            buffers.add(b);
            return b;
        } catch (RuntimeException e) {
            bufferArena.close();
            throw e;
        }
    }

    /** Called after every queue is closed: a channel with CQs still on it refuses to close. */
    void close() {
        for (IoBuffer b : new ArrayList<>(buffers)) {
            b.close();
        }
        if (data != null) {
            data.close();
        }
        if (events != null) {
            events.close();
        }
        if (pd != null) {
            pd.close();
        }
        arena.close();
    }
}
