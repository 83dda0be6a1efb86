package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.probe.SameHostFacts;

/**
 * The transport rule of the bootstrap exchange. Both sides apply it to the same two statements
 * (each side's preference and capabilities), so both arrive at the same transport without
 * another round trip; only the wording of the reason differs ("no RDMA device" here is "peer
 * has no RDMA device" there).
 */
final class TransportSelector {
    private TransportSelector() {}

    /**
     * The choice with shared memory among the candidates: only when a side forces it (AUTO
     * chooses between RDMA and TCP), and then only between processes on one kernel, in one
     * network namespace, under one user, or a CONNECT_FAILED exception that says which differs.
     */
    static TransportChoice choose(TransportPreference local, Capabilities localCaps, SameHostFacts localHost,
                                  TransportPreference peer, Capabilities peerCaps, SameHostFacts peerHost) {
        if (local != TransportPreference.SHM && peer != TransportPreference.SHM) {
            return choose(local, localCaps, peer, peerCaps);
        }
        TransportPreference other = local == TransportPreference.SHM ? peer : local;
        if (other != TransportPreference.SHM && other != TransportPreference.AUTO) {
            throw new ChannelException(ChannelError.CONNECT_FAILED,
                    "one side forces shm and the other " + other.name().toLowerCase(java.util.Locale.ROOT));
        }
        String gap = localHost.gapTo(peerHost);
        if (gap != null) {
            throw new ChannelException(ChannelError.CONNECT_FAILED, "shm is forced by configuration but " + gap);
        }
        return TransportChoice.shm(local == TransportPreference.SHM ? "forced by configuration"
                : "forced by the peer's configuration");
    }

    /** The choice between RDMA and TCP, or a CONNECT_FAILED exception when configuration forces what cannot be. */
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
