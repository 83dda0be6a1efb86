package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A peer's registered memory as this side names it in one-sided operations: start address,
 * length and key (the rkey on RDMA). Pass it over with {@link #toSegment()} in a message.
 *
 * @param address the region's start address at the peer
 * @param length  the region's size in bytes
 * @param key     the key the peer checks (the rkey on RDMA)
 */
public record RemoteRegion(long address, long length, int key) {
    /** Encoded size: address, length, key. */
    public static final int ENCODED_SIZE = 20;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException when {@code length} is negative
     */
    public RemoteRegion {
        if (length < 0) {
            throw new IllegalArgumentException("negative region length " + length);
        }
    }

    /**
     * The same region with another key (a way to test a peer's key check).
     *
     * @param otherKey the key to use instead
     * @return a new value
     */
    public RemoteRegion withKey(int otherKey) {
        return new RemoteRegion(address, length, otherKey);
    }

    /**
     * The address {@code offset} bytes into the region.
     *
     * @param offset bytes from the start
     * @return {@code address() + offset}
     */
    public long at(long offset) {
        return address + offset;
    }

    /**
     * Encodes this value for a message to the peer.
     *
     * @return {@link #ENCODED_SIZE} new bytes, big-endian
     */
    public MemorySegment toSegment() {
        MemorySegment s = MemorySegment.ofArray(new byte[ENCODED_SIZE]);
        s.set(LONG, 0, address);
        s.set(LONG, 8, length);
        s.set(INT, 16, key);
        return s;
    }

    /**
     * Decodes what the peer's {@link #toSegment()} made.
     *
     * @param s at least {@link #ENCODED_SIZE} bytes
     * @return the peer's region
     * @throws IllegalArgumentException when {@code s} is too short
     */
    public static RemoteRegion fromSegment(MemorySegment s) {
        if (s.byteSize() < ENCODED_SIZE) {
            throw new IllegalArgumentException("a remote region takes " + ENCODED_SIZE + " bytes, got " + s.byteSize());
        }
        return new RemoteRegion(s.get(LONG, 0), s.get(LONG, 8), s.get(INT, 16));
    }

    @Override
    public String toString() {
        return String.format("RemoteRegion[addr=0x%x, length=%d, key=0x%x]", address, length, key);
    }
}
