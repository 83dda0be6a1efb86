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

    /** Why {@code AUTO} chose shared memory: what the hellos stated, which the shm set-up then proves. */
    static final String SAME_HOST = "both processes on one kernel, in one network namespace, under one user";

    /**
     * The choice with shared memory among the candidates. {@code AUTO} on both sides chooses it
     * when both hellos state one kernel, one network namespace and one user; otherwise RDMA or
     * TCP, with the reason shared memory was not chosen after the reason for the choice ("both
     * sides can do RDMA; not shm: the peer runs as uid 1001, this process as 1000"). A side that
     * forces shm gets it between such processes, or a CONNECT_FAILED exception that says which
     * fact differs; a side that forces RDMA or TCP gets what it forced.
     */
    static TransportChoice choose(TransportPreference local, Capabilities localCaps, SameHostFacts localHost,
                                  TransportPreference peer, Capabilities peerCaps, SameHostFacts peerHost) {
        String gap = localHost.gapTo(peerHost);
        if (local == TransportPreference.AUTO && peer == TransportPreference.AUTO) {
            return gap == null ? TransportChoice.shm(SAME_HOST)
                    : withNote(choose(local, localCaps, peer, peerCaps), notShmNote(gap));
        }
        if (local != TransportPreference.SHM && peer != TransportPreference.SHM) {
            return choose(local, localCaps, peer, peerCaps);
        }
        TransportPreference other = local == TransportPreference.SHM ? peer : local;
        if (other != TransportPreference.SHM && other != TransportPreference.AUTO) {
            throw new ChannelException(ChannelError.CONNECT_FAILED,
                    "one side forces shm and the other " + other.name().toLowerCase(java.util.Locale.ROOT));
        }
        if (gap != null) {
            throw new ChannelException(ChannelError.CONNECT_FAILED, "shm is forced by configuration but " + gap);
        }
        return TransportChoice.shm(local == TransportPreference.SHM ? "forced by configuration"
                : "forced by the peer's configuration");
    }

    /**
     * The choice after {@code AUTO}'s shared-memory set-up failed on either side: RDMA or TCP as
     * without shared memory, the failure after the reason.
     */
    static TransportChoice afterShmFailed(TransportPreference local, Capabilities localCaps, TransportPreference peer,
                                          Capabilities peerCaps, String failure) {
        return withNote(choose(local, localCaps, peer, peerCaps), shmFailedNote(failure));
    }

    /** How a reason says why the hellos ruled shared memory out. */
    static String notShmNote(String gap) {
        return "not shm: " + gap;
    }

    /** How a reason mentions a failed shared-memory set-up. */
    static String shmFailedNote(String failure) {
        return "shm set-up failed: " + failure;
    }

    /** {@code choice} with {@code note} after its reason. */
    static TransportChoice withNote(TransportChoice choice, String note) {
        return new TransportChoice(choice.kind(), choice.reason() + "; " + note, choice.device(), choice.gidIndex(),
                choice.gidType());
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
