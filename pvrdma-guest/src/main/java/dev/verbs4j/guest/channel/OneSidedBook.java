package dev.verbs4j.guest.channel;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.RegisteredRegion;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a transport that emulates RDMA's one-sided writes and reads keeps: this side's registered
 * regions (the peer's requests are checked against them, {@link RegionTable}) and this side's
 * reads that wait for the peer's data, by operation id. No lock: both are concurrent tables.
 */
public final class OneSidedBook {
    private final RegionTable regions = new RegionTable();
    private final Map<Long, MemorySegment> readTargets = new ConcurrentHashMap<>();

    public RegisteredRegion register(long size) {
        return regions.register(size);
    }

    /** The bytes a peer's request names, or REMOTE_ACCESS as {@link RegionTable#resolve} says. */
    public MemorySegment resolve(long address, int key, long length) {
        return regions.resolve(address, key, length);
    }

    /** Operation {@code id} reads into {@code local} once the peer's data comes. */
    public void expectRead(long id, MemorySegment local) {
        readTargets.put(id, local);
    }

    /** Where the data of read {@code id} goes (null when it is not a read, or no longer waits); it waits no more. */
    public MemorySegment takeRead(long id) {
        return readTargets.remove(id);
    }

    /** The channel ended: no read waits any more (the regions stay: their owner closes them, and may still read them). */
    /** The largest region registered here: the longest payload a valid one-sided write may carry. */
    public long largestRegion() {
        return regions.largest();
    }

    /** The longest read this side is waiting for: the longest answer a valid read may get. */
    public long longestReadTarget() {
        long longest = 0;
        for (MemorySegment target : readTargets.values()) {
            longest = Math.max(longest, target.byteSize());
        }
        return longest;
    }

    public void clear() {
        readTargets.clear();
    }

    /**
     * An invalid access of the peer's ends the connection here too, as it moves an RC responder
     * QP to ERR: the failure this side ends with. Anything but REMOTE_ACCESS is thrown on.
     */
    public static ChannelException refusal(ChannelException why) {
        if (why.error() != ChannelError.REMOTE_ACCESS) {
            throw why;
        }
        return new ChannelException(ChannelError.REMOTE_ACCESS,
                "the peer made an invalid one-sided access: " + why.getMessage());
    }

    /** The peer refused this side's access: how the operation and the channel fail. */
    public static ChannelException refusedByPeer() {
        return new ChannelException(ChannelError.REMOTE_ACCESS,
                "the peer refused the access (unknown key or outside its region)");
    }
}
