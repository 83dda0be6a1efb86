package dev.verbs4j.guest.channel;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.verbs.RemoteRegion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The regions a TCP channel has registered, by key. The peer's one-sided requests are checked
 * here as an RDMA device checks them: the key must name a live region and the whole range must
 * lie inside it, or the access fails with {@link ChannelError#REMOTE_ACCESS}.
 */
public final class RegionTable {
    private final Map<Integer, TableRegion> byKey = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    /** The largest region registered so far: no request of the peer's may name more bytes. */
    private volatile long largest;

    public RegisteredRegion register(long size) {
        if (size <= 0) {
            throw new IllegalArgumentException("region size must be positive, got " + size);
        }
        Arena arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(size, 64);
        synchronized (this) {
            largest = Math.max(largest, size);
        }
        int key;
        TableRegion region;
        do {
            key = random.nextInt();
            region = new TableRegion(this, arena, memory, key);
        } while (key == 0 || byKey.putIfAbsent(key, region) != null);
        return region;
    }

    /** The size of the largest region registered so far (0 before the first): a bound on any valid access. */
    public long largest() {
        return largest;
    }

    /** The bytes a peer's request names, or a REMOTE_ACCESS failure exactly when RDMA would fail. */
    public MemorySegment resolve(long address, int key, long length) {
        TableRegion region = byKey.get(key);
        if (region == null) {
            throw new ChannelException(ChannelError.REMOTE_ACCESS, String.format("no region with key 0x%x", key));
        }
        long start = region.memory.address();
        if (length < 0 || address < start || address - start > region.memory.byteSize() - length) {
            throw new ChannelException(ChannelError.REMOTE_ACCESS, String.format(
                    "range 0x%x+%d is outside the region 0x%x+%d", address, length, start, region.memory.byteSize()));
        }
        return region.memory.asSlice(address - start, length);
    }

    private static final class TableRegion implements RegisteredRegion {
        private final RegionTable table;
        private final Arena arena;
        private final MemorySegment memory;
        private final RemoteRegion remote;

        TableRegion(RegionTable table, Arena arena, MemorySegment memory, int key) {
            this.table = table;
            this.arena = arena;
            this.memory = memory;
            this.remote = new RemoteRegion(memory.address(), key, memory.byteSize());
        }

        @Override
        public MemorySegment memory() {
            return memory;
        }

        @Override
        public RemoteRegion remote() {
            return remote;
        }

        @Override
        public void close() {
            // remove first so the loop thread stops serving it before the memory goes away
            if (table.byKey.remove(remote.rkey(), this)) {
                arena.close();
            }
        }
    }
}
