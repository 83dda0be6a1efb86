package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.TransportPreference;

/**
 * The transport rule of the bootstrap exchange. Both sides apply it to the same two statements
 * (each side's preference and capabilities), so both arrive at the same transport without
 * another round trip; only the wording of the reason differs ("no RDMA device" here is "peer
 * has no RDMA device" there).
 */
final class TransportSelector {
    private TransportSelector() {}

    /** The choice, or a CONNECT_FAILED exception when configuration forces what cannot be. */
    public static TransportChoice choose(TransportPreference local, Capabilities localCaps,
                                         TransportPreference peer, Capabilities peerCaps) {
        boolean rdmaForced = local == TransportPreference.RDMA || peer == TransportPreference.RDMA;
        if (local == TransportPreference.TCP || peer == TransportPreference.TCP) {
            if (rdmaForced) {
                throw new ChannelException(ChannelError.CONNECT_FAILED, "one side forces rdma and the other tcp");
            }
            return TransportChoice.tcp(local == TransportPreference.TCP ? "forced by configuration"
                    : "forced by the peer's configuration");
        }
        String gap = !localCaps.canRdma() ? localCaps.reasonHere()
                : !peerCaps.canRdma() ? peerCaps.reasonAtPeer() : null;
        if (gap != null) {
            if (rdmaForced) {
                throw new ChannelException(ChannelError.CONNECT_FAILED, "rdma is forced by configuration but " + gap);
            }
            return TransportChoice.tcp(gap);
        }
        String why = local == TransportPreference.RDMA ? "forced by configuration"
                : peer == TransportPreference.RDMA ? "forced by the peer's configuration" : "both sides can do RDMA";
        return TransportChoice.rdma(why, localCaps.device(), localCaps.gidIndex(), localCaps.gidType());
    }
}
