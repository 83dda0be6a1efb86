package dev.verbs4j.verbs;

import java.util.Set;

/**
 * A QP's current attributes as {@code ibv_query_qp} reports them.
 *
 * @param pathMtu     null while the QP has none (before RTR)
 * @param remote      the primary path's address vector (meaningful from RTR on, for RC/UC)
 * @param remoteAccess remote access allowed through the QP (IBV_ACCESS_REMOTE_* bits)
 */
public record QpAttributes(QpState state, QpType type, int qpNumber, QpCapabilities capabilities, PathMtu pathMtu,
                           int qkey, int rqPsn, int sqPsn, int destQpNumber, int remoteAccess, int pkeyIndex,
                           int port, int timeout, int retryCount, int rnrRetry, int maxRdAtomic,
                           int maxDestRdAtomic, int minRnrTimer, boolean sqDraining, AddressVector remote) {

    public boolean allows(Access access) {
        return (remoteAccess & access.bit()) != 0;
    }

    public boolean allowsAll(Set<Access> access) {
        int mask = Access.mask(access);
        return (remoteAccess & mask) == mask;
    }
}
