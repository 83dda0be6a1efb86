package dev.verbs4j.guest.shm;

/**
 * Where things sit in a shared-memory channel's segment. Two rings, one per direction, each
 * with a control block of three words on cache lines of their own (so producer and consumer
 * never write the same line) and a data area of records:
 *
 * <pre>
 *   0      magic, version, ring capacity           (written by the creator, informational)
 *   512    control of ring A (creator to attacher): head, armed, space wanted
 *   1024   control of ring B (attacher to creator)
 *   4096   data of ring A, then data of ring B     (each {@code capacity} bytes)
 * </pre>
 *
 * <p>Positions are byte counts since the ring began (longs that only grow); a record sits at
 * {@code position % capacity}. Both processes compute the layout from the capacity the creator
 * sent over the unix socket, never from what the segment says.
 */
final class ShmLayout {
    static final long MAGIC = 0x5634_4A53_484D_0001L; // "V4JSHM" and a version
    static final long RING_A_CONTROL = 512, RING_B_CONTROL = 1024;
    /** Offsets inside a control block: the consumer's position, its sleep flag, the producer's wait flag. */
    static final long HEAD = 0, ARMED = 128, SPACE_WANTED = 256;
    static final long DATA_START = 4096;
    static final long PAGE = 4096;

    private ShmLayout() {}

    /**
     * The capacity of each ring: room for every record both sides may have in flight in one
     * direction (the producer's own sends and the answers it owes the peer's one-sided requests,
     * each at most {@code maxRecord}), and two more for a wrap's padding and the goodbye.
     */
    static long capacity(int producerDepth, int consumerDepth, int maxMessageSize) {
        long bytes = ((long) producerDepth + consumerDepth + 2) * ShmRecord.maxRecordSize(maxMessageSize);
        return (bytes + PAGE - 1) / PAGE * PAGE;
    }

    /** The whole segment's size for rings of {@code capacity} bytes. */
    static long segmentSize(long capacity) {
        return DATA_START + 2 * capacity;
    }

    /** Where the data of the ring the creator produces into (true) or the attacher does (false) starts. */
    static long dataOf(boolean creatorProduces, long capacity) {
        return creatorProduces ? DATA_START : DATA_START + capacity;
    }

    static long controlOf(boolean creatorProduces) {
        return creatorProduces ? RING_A_CONTROL : RING_B_CONTROL;
    }
}
