package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_ah_attr;
import dev.verbs4j.bindings.ibv_global_route;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Where a peer is ({@code struct ibv_ah_attr}): used at RTR for connected QPs and for address
 * handles of UD sends. With a destination GID the global route header is on ({@code is_global=1}),
 * which RoCE always needs; a LID alone only addresses InfiniBand ports. Immutable (GIDs are copied
 * in and out), safe to share; build one with {@link #builder()} or {@link #roce(byte[], GidEntry)}.
 */
public final class AddressVector {
    private final byte[] destGid;
    private final int destLid;
    private final int serviceLevel;
    private final int sourceGidIndex;
    private final int hopLimit;
    private final int trafficClass;
    private final int flowLabel;
    private final int port;

    private AddressVector(Builder b) {
        this.destGid = b.destGid;
        this.destLid = b.destLid;
        this.serviceLevel = b.serviceLevel;
        this.sourceGidIndex = b.sourceGidIndex;
        this.hopLimit = b.hopLimit;
        this.trafficClass = b.trafficClass;
        this.flowLabel = b.flowLabel;
        this.port = b.port;
    }

    /**
     * Starts an address vector: port 1, hop limit 64, everything else 0 and no GID.
     *
     * @return a new builder (not thread-safe)
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A RoCE peer: its GID, reached from our GID {@code local} (whose index and port are used).
     *
     * @param destGid the peer's 16-byte GID (copied)
     * @param local   the local GID entry to send from, e.g. from {@link Context#chooseGid}
     * @return the address vector
     * @throws IllegalArgumentException if {@code destGid} is not 16 bytes
     */
    public static AddressVector roce(byte[] destGid, GidEntry local) {
        return builder().destGid(destGid).sourceGidIndex(local.index()).port(local.port()).build();
    }

    /**
     * The destination GID.
     *
     * @return a fresh copy of the 16 bytes, or null when routing by LID only
     */
    public byte[] destGid() {
        return destGid == null ? null : destGid.clone();
    }

    /**
     * Whether the global route header is on (a destination GID is set).
     *
     * @return true with a GID
     */
    public boolean isGlobal() {
        return destGid != null;
    }

    /**
     * The destination LID (InfiniBand).
     *
     * @return 0..0xFFFF; 0 on RoCE
     */
    public int destLid() {
        return destLid;
    }

    /**
     * The service level.
     *
     * @return 0..15
     */
    public int serviceLevel() {
        return serviceLevel;
    }

    /**
     * Index of the local GID to send from (global routes only).
     *
     * @return 0..255
     */
    public int sourceGidIndex() {
        return sourceGidIndex;
    }

    /**
     * The GRH hop limit (IP TTL on RoCE v2).
     *
     * @return 0..255, 64 by default
     */
    public int hopLimit() {
        return hopLimit;
    }

    /**
     * The GRH traffic class (IP DSCP/ECN bits on RoCE v2).
     *
     * @return 0..255
     */
    public int trafficClass() {
        return trafficClass;
    }

    /**
     * The GRH flow label.
     *
     * @return 0..0xFFFFF
     */
    public int flowLabel() {
        return flowLabel;
    }

    /**
     * The local port the peer is reached through.
     *
     * @return the port number, from 1
     */
    public int port() {
        return port;
    }

    /** Fills a zeroed {@code struct ibv_ah_attr}. */
    void writeTo(MemorySegment ah) {
        ibv_ah_attr.dlid(ah, (short) destLid);
        ibv_ah_attr.sl(ah, (byte) serviceLevel);
        ibv_ah_attr.src_path_bits(ah, (byte) 0);
        ibv_ah_attr.static_rate(ah, (byte) 0);
        ibv_ah_attr.port_num(ah, (byte) port);
        if (destGid != null) {
            ibv_ah_attr.is_global(ah, (byte) 1);
            MemorySegment grh = ibv_ah_attr.grh(ah);
            MemorySegment.copy(destGid, 0, ibv_global_route.dgid(grh), ValueLayout.JAVA_BYTE, 0, 16);
            ibv_global_route.flow_label(grh, flowLabel);
            ibv_global_route.sgid_index(grh, (byte) sourceGidIndex);
            ibv_global_route.hop_limit(grh, (byte) hopLimit);
            ibv_global_route.traffic_class(grh, (byte) trafficClass);
        } else {
            ibv_ah_attr.is_global(ah, (byte) 0);
        }
    }

    /** Reads a {@code struct ibv_ah_attr} (as ibv_query_qp returns it). */
    static AddressVector readFrom(MemorySegment ah) {
        Builder b = builder().destLid(Short.toUnsignedInt(ibv_ah_attr.dlid(ah)))
                .serviceLevel(Byte.toUnsignedInt(ibv_ah_attr.sl(ah)))
                .port(Math.max(1, Byte.toUnsignedInt(ibv_ah_attr.port_num(ah))));
        if (ibv_ah_attr.is_global(ah) != 0) {
            MemorySegment grh = ibv_ah_attr.grh(ah);
            b.destGid(ibv_global_route.dgid(grh).toArray(ValueLayout.JAVA_BYTE))
                    .sourceGidIndex(Byte.toUnsignedInt(ibv_global_route.sgid_index(grh)))
                    .hopLimit(Byte.toUnsignedInt(ibv_global_route.hop_limit(grh)))
                    .trafficClass(Byte.toUnsignedInt(ibv_global_route.traffic_class(grh)))
                    .flowLabel(ibv_global_route.flow_label(grh) & 0xFFFFF);
        }
        return b.build();
    }

    @Override
    public String toString() {
        return "AddressVector[" + (destGid != null ? "gid=" + HexFormat.of().formatHex(destGid) + ", sgidIndex="
                + sourceGidIndex + ", hopLimit=" + hopLimit + ", " : "") + "lid=" + destLid + ", sl=" + serviceLevel
                + ", port=" + port + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AddressVector a && Arrays.equals(a.destGid, destGid) && a.destLid == destLid
                && a.serviceLevel == serviceLevel && a.sourceGidIndex == sourceGidIndex && a.hopLimit == hopLimit
                && a.trafficClass == trafficClass && a.flowLabel == flowLabel && a.port == port;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(destGid) * 31 + destLid * 17 + port;
    }

    /** Builds an {@link AddressVector}; each setter checks its range at once. Not thread-safe. */
    public static final class Builder {
        private byte[] destGid;
        private int destLid;
        private int serviceLevel;
        private int sourceGidIndex;
        private int hopLimit = 64;
        private int trafficClass;
        private int flowLabel;
        private int port = 1;

        private Builder() {}

        /**
         * The peer's 16-byte GID; turns the global route header on.
         *
         * @param gid the GID (copied), or null to route by LID only
         * @return this builder
         * @throws IllegalArgumentException if {@code gid} is not 16 bytes
         */
        public Builder destGid(byte[] gid) {
            if (gid != null && gid.length != 16) {
                throw new IllegalArgumentException("a GID has 16 bytes, got " + gid.length);
            }
            this.destGid = gid == null ? null : gid.clone();
            return this;
        }

        /**
         * The destination LID (InfiniBand).
         *
         * @param lid 0..0xFFFF
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder destLid(int lid) {
            this.destLid = range("destination LID", lid, 0, 0xFFFF);
            return this;
        }

        /**
         * The service level.
         *
         * @param sl 0..15
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder serviceLevel(int sl) {
            this.serviceLevel = range("service level", sl, 0, 15);
            return this;
        }

        /**
         * Index of our own GID to send from (the RoCE version and IP version follow from it).
         *
         * @param index 0..255, a populated entry of the port's GID table
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder sourceGidIndex(int index) {
            this.sourceGidIndex = range("source GID index", index, 0, 255);
            return this;
        }

        /**
         * The GRH hop limit (IP TTL on RoCE v2).
         *
         * @param hops 0..255
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder hopLimit(int hops) {
            this.hopLimit = range("hop limit", hops, 0, 255);
            return this;
        }

        /**
         * The GRH traffic class.
         *
         * @param tc 0..255
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder trafficClass(int tc) {
            this.trafficClass = range("traffic class", tc, 0, 255);
            return this;
        }

        /**
         * The GRH flow label.
         *
         * @param label 0..0xFFFFF
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder flowLabel(int label) {
            this.flowLabel = range("flow label", label, 0, 0xFFFFF);
            return this;
        }

        /**
         * The local port.
         *
         * @param port 1..255
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder port(int port) {
            this.port = range("port", port, 1, 255);
            return this;
        }

        /**
         * Builds the address vector from the values set so far.
         *
         * @return a new immutable address vector
         */
        public AddressVector build() {
            return new AddressVector(this);
        }
    }

    static int range(String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " must be in " + min + ".." + max + ", got " + value);
        }
        return value;
    }
}
