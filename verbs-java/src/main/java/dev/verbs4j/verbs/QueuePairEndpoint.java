package dev.verbs4j.verbs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What a peer needs to know about one of our queue pairs to talk to it: the QP number, the PSN
 * our first packet carries, where the port is (GID for RoCE, LID for InfiniBand), its path MTU,
 * the Q_Key for UD, and optionally one memory region the peer may write, read or use for atomics.
 *
 * <p>{@link PreparedQueuePair#endpoint()} makes one; each side sends its own to the other over
 * any channel (a TCP socket: {@link EndpointExchange}; rdma_cm private data; a file), and passes
 * the peer's to {@link PreparedQueuePair#connect(QueuePairEndpoint)}.
 *
 * <p>The byte form ({@link #toBytes()}, {@link #fromBytes(byte[])}) is fixed: {@value #BYTES}
 * bytes, big-endian, starting with the magic {@code "V4QE"} and a version byte ({@value #VERSION}),
 * so two programs built from different releases either understand each other or fail with a
 * clear message.
 *
 * <p>An immutable value: it owns nothing and may be shared between threads.
 *
 * @param qpNumber the QP number (24 bits)
 * @param psn      the PSN of the QP's first packet (24 bits): the peer's receive PSN
 * @param gid      the port's GID (16 bytes), or null on InfiniBand without a global route
 * @param lid      the port's LID (16 bits; 0 on RoCE)
 * @param mtu      the largest path MTU this side can use; connect takes the smaller of both sides'
 * @param qkey     the Q_Key a UD QP accepts; 0 for RC and UC
 * @param region   a memory region the peer may access, or null
 */
public record QueuePairEndpoint(int qpNumber, int psn, byte[] gid, int lid, PathMtu mtu, int qkey,
                                RemoteRegion region) {
    /** The length of {@link #toBytes()}. */
    public static final int BYTES = 64;
    /** The version of the byte form written by {@link #toBytes()}. */
    public static final int VERSION = 1;
    private static final int MAGIC = 0x56345145; // "V4QE"
    private static final int HAS_GID = 1;
    private static final int HAS_REGION = 2;

    /**
     * Checks the ranges and copies the GID.
     *
     * @throws IllegalArgumentException when a number is out of range or the GID is not 16 bytes
     * @throws NullPointerException     when {@code mtu} is null
     */
    public QueuePairEndpoint {
        AddressVector.range("QP number", qpNumber, 0, 0xFFFFFF);
        AddressVector.range("PSN", psn, 0, 0xFFFFFF);
        AddressVector.range("LID", lid, 0, 0xFFFF);
        Objects.requireNonNull(mtu, "mtu");
        if (gid != null) {
            if (gid.length != 16) {
                throw new IllegalArgumentException("a GID has 16 bytes, got " + gid.length);
            }
            gid = gid.clone();
        }
    }

    /**
     * The port's GID.
     *
     * @return a copy of the 16 bytes, or null
     */
    @Override
    public byte[] gid() {
        return gid == null ? null : gid.clone();
    }

    /**
     * The same endpoint announcing {@code region} to the peer.
     *
     * @param region the region the peer may access, or null for none
     * @return a new endpoint
     */
    public QueuePairEndpoint withRegion(RemoteRegion region) {
        return new QueuePairEndpoint(qpNumber, psn, gid, lid, mtu, qkey, region);
    }

    /**
     * The same endpoint announcing {@code region} (its address, rkey and length) to the peer.
     *
     * @param region a registered region of ours
     * @return a new endpoint
     */
    public QueuePairEndpoint withRegion(MemoryRegion region) {
        return withRegion(RemoteRegion.of(region));
    }

    /**
     * The address of this endpoint as seen from our port: for RC/UC the RTR path, for UD the
     * address handle of sends to it.
     *
     * @param port           our port number
     * @param sourceGidIndex our GID index on that port (ignored without a GID)
     * @return the address vector
     */
    public AddressVector addressFrom(int port, int sourceGidIndex) {
        AddressVector.Builder b = AddressVector.builder().port(port).destLid(lid);
        if (gid != null) {
            b.destGid(gid).sourceGidIndex(sourceGidIndex);
        }
        return b.build();
    }

    /**
     * The fixed byte form ({@value #BYTES} bytes, version {@value #VERSION}).
     *
     * @return a new array
     */
    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.BIG_ENDIAN);
        b.putInt(MAGIC).put((byte) VERSION).put((byte) ((gid != null ? HAS_GID : 0) | (region != null ? HAS_REGION : 0)))
                .put((byte) mtu.value()).put((byte) 0);
        b.putInt(qpNumber).putInt(psn).putShort((short) lid).putShort((short) 0).putInt(qkey);
        b.put(gid != null ? gid : new byte[16]);
        b.putLong(region != null ? region.address() : 0).putInt(region != null ? region.rkey() : 0).putInt(0)
                .putLong(region != null ? region.length() : 0);
        return b.array();
    }

    /**
     * Reads the byte form written by {@link #toBytes()}.
     *
     * Bytes after the first {@value #BYTES} are ignored: rdma_cm, for one, pads private data
     * to the size of its message.
     *
     * @param bytes at least {@value #BYTES} bytes
     * @return the endpoint
     * @throws IllegalArgumentException when the input is too short, or the magic, version or a field is wrong
     */
    public static QueuePairEndpoint fromBytes(byte[] bytes) {
        if (bytes.length < BYTES) {
            throw new IllegalArgumentException("a queue-pair endpoint has " + BYTES + " bytes, got " + bytes.length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new IllegalArgumentException("not a verbs4j queue-pair endpoint (magic 0x" + Integer.toHexString(magic)
                    + "); is the peer a different program?");
        }
        int version = Byte.toUnsignedInt(b.get());
        if (version != VERSION) {
            throw new IllegalArgumentException("queue-pair endpoint version " + version + " is not supported (this"
                    + " library reads version " + VERSION + "); use the same verbs4j release on both sides");
        }
        int flags = b.get();
        int mtuValue = b.get();
        PathMtu mtu = PathMtu.of(mtuValue);
        if (mtu == null) {
            throw new IllegalArgumentException("queue-pair endpoint carries an invalid MTU code " + mtuValue);
        }
        b.get();
        int qpn = b.getInt();
        int psn = b.getInt();
        int lid = Short.toUnsignedInt(b.getShort());
        b.getShort();
        int qkey = b.getInt();
        byte[] gid = new byte[16];
        b.get(gid);
        long address = b.getLong();
        int rkey = b.getInt();
        b.getInt();
        long length = b.getLong();
        return new QueuePairEndpoint(qpn, psn, (flags & HAS_GID) != 0 ? gid : null, lid, mtu, qkey,
                (flags & HAS_REGION) != 0 ? new RemoteRegion(address, rkey, length) : null);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QueuePairEndpoint e && qpNumber == e.qpNumber && psn == e.psn && lid == e.lid
                && qkey == e.qkey && mtu == e.mtu && Arrays.equals(gid, e.gid) && Objects.equals(region, e.region);
    }

    @Override
    public int hashCode() {
        return Objects.hash(qpNumber, psn, lid, qkey, mtu, Arrays.hashCode(gid), region);
    }

    @Override
    public String toString() {
        return "QueuePairEndpoint[qpn=0x" + Integer.toHexString(qpNumber) + ", psn=0x" + Integer.toHexString(psn)
                + ", gid=" + (gid == null ? "none" : HexFormat.of().formatHex(gid)) + ", lid=" + lid + ", mtu="
                + mtu.bytes() + ", qkey=0x" + Integer.toHexString(qkey) + ", region=" + region + "]";
    }
}
