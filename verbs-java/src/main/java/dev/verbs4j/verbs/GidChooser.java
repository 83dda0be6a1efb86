package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which GID to use. The wrong GID index is the most common RoCE failure (QPs that never leave
 * RTR, silent packet drops), so the default picks a RoCE v2 IPv4 GID, and an explicit index is
 * checked against the table with an error that lists what is there. Immutable and thread-safe;
 * pass it to {@link Context#chooseGid(int, GidChooser)}.
 */
public final class GidChooser {
    private final int explicitIndex;

    private GidChooser(int explicitIndex) {
        this.explicitIndex = explicitIndex;
    }

    /**
     * RoCE v2 with an IPv4-mapped address first, then any RoCE v2, then any IPv4-mapped GID (a
     * device that offers RoCE v1 only, such as PVRDMA's device version 17), then the lowest index.
     *
     * @return the default rule
     */
    public static GidChooser preferRoceV2Ipv4() {
        return new GidChooser(-1);
    }

    /**
     * Exactly this index (what {@code -g N} / {@code -x N} mean to rdma-core's tools). Choosing
     * throws {@link VerbsException} (EINVAL, listing the populated entries) when the port has no
     * entry at this index.
     *
     * @param index the GID index, from 0
     * @return a rule that picks that index
     * @throws IllegalArgumentException if {@code index} is negative
     */
    public static GidChooser index(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("GID index must be >= 0, got " + index);
        }
        return new GidChooser(index);
    }

    GidEntry choose(String device, int port, List<GidEntry> table) {
        if (table.isEmpty()) {
            throw new VerbsException("port " + port + " of " + device + " has no GIDs", "ibv_query_gid", 0,
                    "the port's network interface has no address; RoCE needs one (ip addr add ...)");
        }
        if (explicitIndex >= 0) {
            return table.stream().filter(e -> e.index() == explicitIndex).findFirst()
                    .orElseThrow(() -> new VerbsException("GID index " + explicitIndex + " is not populated on "
                            + device + " port " + port, "ibv_query_gid", Errno.EINVAL, "populated: " + describe(table)));
        }
        return table.stream().filter(e -> e.type() == GidType.ROCE_V2 && e.isIpv4()).findFirst()
                .or(() -> table.stream().filter(e -> e.type() == GidType.ROCE_V2).findFirst())
                .or(() -> table.stream().filter(GidEntry::isIpv4).findFirst())
                .orElse(table.getFirst());
    }

    static String describe(List<GidEntry> table) {
        return table.stream().map(e -> e.index() + "=" + e.address().getHostAddress() + " (" + e.type().label() + ")")
                .collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return explicitIndex >= 0 ? "GID index " + explicitIndex : "RoCE v2 IPv4 GID";
    }
}
