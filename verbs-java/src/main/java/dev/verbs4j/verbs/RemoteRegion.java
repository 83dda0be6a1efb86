package dev.verbs4j.verbs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A peer's registered memory as the peer announces it: where it is in the peer's address space,
 * the remote key that opens it, and how long it is. RDMA write, read and atomic work requests
 * name it as their target ({@code remoteAddress}, {@code rkey}).
 *
 * <p>A plain value: it owns nothing, is immutable and may be shared between threads. It stays
 * valid only while the peer keeps its region registered. {@link #toSegment()} and
 * {@link #fromSegment} carry it in a message, in {@value #ENCODED_SIZE} bytes.
 *
 * @param address the region's first byte in the peer's address space
 * @param rkey    the peer's remote key ({@link MemoryRegion#rkey()} on the peer's side)
 * @param length  the region's length in bytes (&gt;= 0)
 */
public record RemoteRegion(long address, int rkey, long length) {
    /** Encoded size: address, length and rkey, big-endian. */
    public static final int ENCODED_SIZE = 20;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /**
     * Checks the length.
     *
     * @throws IllegalArgumentException when {@code length} is negative
     */
    public RemoteRegion {
        if (length < 0) {
            throw new IllegalArgumentException("remote region length must be >= 0, got " + length);
        }
    }

    /**
     * The remote description of a local region, to send to a peer.
     *
     * @param region a registered region (its rkey and address are read once)
     * @return the region's address, rkey and length
     */
    public static RemoteRegion of(MemoryRegion region) {
        return new RemoteRegion(region.address(), region.rkey(), region.length());
    }

    /**
     * The address of byte {@code offset} of the region, checked against its length.
     *
     * @param offset bytes from the start of the region
     * @param bytes  how many bytes the access covers
     * @return {@code address() + offset}
     * @throws IndexOutOfBoundsException when {@code [offset, offset + bytes)} is not inside the region
     */
    public long addressAt(long offset, long bytes) {
        if (offset < 0 || bytes < 0 || offset > length - bytes) {
            throw new IndexOutOfBoundsException("bytes [" + offset + ", " + (offset + bytes)
                    + ") are outside the remote region of " + length + " bytes");
        }
        return address + offset;
    }

    /**
     * The same region with another remote key (a way to test a peer's key check).
     *
     * @param otherRkey the key to use instead
     * @return a new value
     */
    public RemoteRegion withRkey(int otherRkey) {
        return new RemoteRegion(address, otherRkey, length);
    }

    /**
     * The region as {@value #ENCODED_SIZE} bytes, to send to a peer in a message.
     *
     * @return a new heap segment: address, length, rkey (big-endian)
     */
    public MemorySegment toSegment() {
        MemorySegment s = MemorySegment.ofArray(new byte[ENCODED_SIZE]);
        s.set(LONG, 0, address);
        s.set(LONG, 8, length);
        s.set(INT, 16, rkey);
        return s;
    }

    /**
     * Reads a region written by {@link #toSegment()}.
     *
     * @param s at least {@value #ENCODED_SIZE} bytes
     * @return the region
     * @throws IllegalArgumentException when {@code s} is too short or the length negative
     */
    public static RemoteRegion fromSegment(MemorySegment s) {
        if (s.byteSize() < ENCODED_SIZE) {
            throw new IllegalArgumentException("a remote region takes " + ENCODED_SIZE + " bytes, got " + s.byteSize());
        }
        return new RemoteRegion(s.get(LONG, 0), s.get(INT, 16), s.get(LONG, 8));
    }
}
