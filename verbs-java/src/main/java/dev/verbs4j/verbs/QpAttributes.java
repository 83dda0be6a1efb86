package dev.verbs4j.verbs;

import java.util.Set;

/**
 * A QP's current attributes as {@code ibv_query_qp} reports them, from {@link QueuePair#query()}.
 * A snapshot: an immutable value, safe to share. Fields a state has not set yet read as 0.
 *
 * @param state           the QP's state when queried
 * @param type            RC, UC or UD
 * @param qpNumber        the local QP number (24 bits)
 * @param capabilities    the queue sizes the provider allocated
 * @param pathMtu         null while the QP has none (before RTR)
 * @param qkey            the Q_Key (UD)
 * @param rqPsn           the receive queue's expected PSN (from RTR on)
 * @param sqPsn           the send queue's next PSN (from RTS on)
 * @param destQpNumber    the peer's QP number (RC/UC, from RTR on)
 * @param remoteAccess    remote access allowed through the QP (IBV_ACCESS_REMOTE_* bits)
 * @param pkeyIndex       the P_Key table index
 * @param port            the local port, from 1
 * @param timeout         local ACK timeout exponent: 4.096 us times 2^timeout, 0 = infinite (RC)
 * @param retryCount      transport retries before RETRY_EXC_ERR, 0..7 (RC)
 * @param rnrRetry        receiver-not-ready retries, 0..7, 7 = forever (RC)
 * @param maxRdAtomic     RDMA reads/atomics this QP issues at once (RC)
 * @param maxDestRdAtomic RDMA reads/atomics this QP accepts as target at once (RC)
 * @param minRnrTimer     RNR NAK timer code this QP asks the sender to wait (RC)
 * @param sqDraining      whether the send queue is still draining (in SQD)
 * @param remote          the primary path's address vector (meaningful from RTR on, for RC/UC)
 */
public record QpAttributes(QpState state, QpType type, int qpNumber, QpCapabilities capabilities, PathMtu pathMtu,
                           int qkey, int rqPsn, int sqPsn, int destQpNumber, int remoteAccess, int pkeyIndex,
                           int port, int timeout, int retryCount, int rnrRetry, int maxRdAtomic,
                           int maxDestRdAtomic, int minRnrTimer, boolean sqDraining, AddressVector remote) {

    /**
     * Whether the QP lets peers do {@code access}.
     *
     * @param access a remote access flag
     * @return true when its bit is set in {@code remoteAccess}
     */
    public boolean allows(Access access) {
        return (remoteAccess & access.bit()) != 0;
    }

    /**
     * Whether the QP lets peers do all of {@code access}.
     *
     * @param access remote access flags
     * @return true when every bit is set in {@code remoteAccess}
     */
    public boolean allowsAll(Set<Access> access) {
        int mask = Access.mask(access);
        return (remoteAccess & mask) == mask;
    }
}
