package dev.verbs4j.guest.rdma;

import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.verbs.RemoteRegion;
import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.ProtectionDomain;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.function.Consumer;

/** A region of an RDMA channel: native memory registered for local use and the peer's reads and writes. */
final class RdmaChannelRegion implements RegisteredRegion {
    private static final Set<Access> ACCESS = Set.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);

    private final Arena arena;
    private final MemoryRegion mr;
    private final RemoteRegion remote;
    private final Consumer<RdmaChannelRegion> onClose;
    private boolean closed;

    RdmaChannelRegion(ProtectionDomain pd, long size, Consumer<RdmaChannelRegion> onClose) {
        if (size <= 0) {
            throw new IllegalArgumentException("region size must be positive, got " + size);
        }
        this.arena = Arena.ofShared();
        try {
            this.mr = pd.register(arena.allocate(size, 4096), ACCESS);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        this.remote = RemoteRegion.of(mr);
        this.onClose = onClose;
    }

    MemoryRegion memoryRegion() {
        return mr;
    }

    @Override
    public MemorySegment memory() {
        return mr.memory();
    }

    @Override
    public RemoteRegion remote() {
        return remote;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        mr.close();
        arena.close();
        onClose.accept(this);
    }
}
