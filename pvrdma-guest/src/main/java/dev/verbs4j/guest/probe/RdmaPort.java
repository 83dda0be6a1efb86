package dev.verbs4j.guest.probe;

import dev.verbs4j.verbs.GidEntry;
import dev.verbs4j.verbs.GidType;
import java.util.List;
import java.util.Optional;

/**
 * One port of an RDMA device, from sysfs.
 *
 * @param number    port number (1-based)
 * @param stateCode IB port state (4 = ACTIVE)
 * @param state     the state's name, e.g. ACTIVE or DOWN
 * @param physState physical state as sysfs prints it, e.g. "5: LinkUp"
 * @param linkLayer Ethernet or InfiniBand
 * @param gids      the populated GID entries
 */
public record RdmaPort(int number, int stateCode, String state, String physState, String linkLayer,
        List<GidEntry> gids) {
    public static final int STATE_ACTIVE = 4;

    /** Copies the list components, so the record is immutable. */
    public RdmaPort {
        gids = List.copyOf(gids);
    }

    /**
     * Whether the port is up.
     *
     * @return true in state ACTIVE
     */
    public boolean isActive() {
        return stateCode == STATE_ACTIVE;
    }

    /**
     * Whether the port runs over Ethernet (RoCE).
     *
     * @return true for link layer Ethernet
     */
    public boolean isEthernet() {
        return "Ethernet".equalsIgnoreCase(linkLayer);
    }

    /**
     * The GID a connection should use: RoCE v2 with an IPv4-mapped address first, then any RoCE
     * v2, then (a port with RoCE v1 only, as PVRDMA's device version 17) an IPv4-mapped RoCE v1
     * GID, which reaches peers on the same Ethernet segment only; on InfiniBand the first IB GID.
     *
     * @return the GID, empty when the port has none to offer
     */
    public Optional<GidEntry> preferredGid() {
        if (!isEthernet()) {
            return gids.stream().filter(g -> g.type() == GidType.IB).findFirst();
        }
        return gids.stream().filter(g -> g.type() == GidType.ROCE_V2 && g.isIpv4()).findFirst()
                .or(() -> gids.stream().filter(g -> g.type() == GidType.ROCE_V2).findFirst())
                .or(() -> gids.stream().filter(g -> g.type() == GidType.ROCE_V1 && g.isIpv4()).findFirst());
    }

    /**
     * How many GIDs of a type the port has.
     *
     * @param type the GID type
     * @return the count
     */
    public long count(GidType type) {
        return gids.stream().filter(g -> g.type() == type).count();
    }
}
