package dev.verbs4j.verbs;

/**
 * A peer's registered memory as the peer announces it: where it is in the peer's address space,
 * the remote key that opens it, and how long it is. RDMA write, read and atomic work requests
 * name it as their target ({@code remoteAddress}, {@code rkey}).
 *
 * <p>A plain value: it owns nothing, is immutable and may be shared between threads. It stays
 * valid only while the peer keeps its region registered.
 *
 * @param address the region's first byte in the peer's address space
 * @param rkey    the peer's remote key ({@link MemoryRegion#rkey()} on the peer's side)
 * @param length  the region's length in bytes (&gt;= 0)
 */
public record RemoteRegion(long address, int rkey, long length) {

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
}
