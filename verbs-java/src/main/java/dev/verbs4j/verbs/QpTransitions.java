package dev.verbs4j.verbs;

import static dev.verbs4j.verbs.QpAttrMask.ACCESS_FLAGS;
import static dev.verbs4j.verbs.QpAttrMask.AV;
import static dev.verbs4j.verbs.QpAttrMask.DEST_QPN;
import static dev.verbs4j.verbs.QpAttrMask.MAX_DEST_RD_ATOMIC;
import static dev.verbs4j.verbs.QpAttrMask.MAX_QP_RD_ATOMIC;
import static dev.verbs4j.verbs.QpAttrMask.MIN_RNR_TIMER;
import static dev.verbs4j.verbs.QpAttrMask.PATH_MTU;
import static dev.verbs4j.verbs.QpAttrMask.PKEY_INDEX;
import static dev.verbs4j.verbs.QpAttrMask.PORT;
import static dev.verbs4j.verbs.QpAttrMask.QKEY;
import static dev.verbs4j.verbs.QpAttrMask.RETRY_CNT;
import static dev.verbs4j.verbs.QpAttrMask.RNR_RETRY;
import static dev.verbs4j.verbs.QpAttrMask.RQ_PSN;
import static dev.verbs4j.verbs.QpAttrMask.SQ_PSN;
import static dev.verbs4j.verbs.QpAttrMask.STATE;
import static dev.verbs4j.verbs.QpAttrMask.TIMEOUT;

import dev.verbs4j.bindings.ibv_qp_attr;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/**
 * The IB QP state machine and the attributes each transition requires per QP type (the tables in
 * ibv_modify_qp(3)). Everything here is checked in Java before ibv_modify_qp runs, so a mistake
 * names the missing attribute instead of coming back as a bare EINVAL.
 */
final class QpTransitions {
    static final int DEFAULT_MAX_DEST_RD_ATOMIC = 1;
    static final int DEFAULT_MIN_RNR_TIMER = 12;
    static final int DEFAULT_TIMEOUT = 14;
    static final int DEFAULT_RETRY_COUNT = 7;
    static final int DEFAULT_RNR_RETRY = 7;
    static final int DEFAULT_MAX_RD_ATOMIC = 1;

    private static final Set<Access> RC_REMOTE_ACCESS =
            EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);
    private static final Set<Access> UC_REMOTE_ACCESS = EnumSet.of(Access.REMOTE_WRITE);
    /**
     * Flags that describe a memory region, not a QP: passing {@link Access#ALL_REMOTE} (which holds
     * LOCAL_WRITE, needed by the region) to INIT drops them instead of failing.
     */
    private static final Set<Access> MEMORY_ONLY_ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.ZERO_BASED,
            Access.ON_DEMAND, Access.HUGETLB, Access.RELAXED_ORDERING);

    private QpTransitions() {}

    /** Throws when the state machine has no edge from {@code from} to {@code to}. */
    static void checkTransition(QpState from, QpState to) {
        boolean legal = switch (to) {
            case RESET, ERR -> true;
            case INIT -> from == QpState.RESET || from == QpState.INIT;
            case RTR -> from == QpState.INIT;
            case RTS -> from == QpState.RTR || from == QpState.RTS || from == QpState.SQD || from == QpState.SQE;
            case SQD -> from == QpState.RTS || from == QpState.SQD;
            default -> false;
        };
        if (!legal) {
            throw new QpStateException(from, to, expected(to));
        }
    }

    private static String expected(QpState to) {
        return switch (to) {
            case INIT -> "INIT is entered from RESET";
            case RTR -> "RTR is entered from INIT (call toInit first)";
            case RTS -> "RTS is entered from RTR (call toRtr first), SQD or SQE";
            case SQD -> "SQD is entered from RTS";
            default -> to + " cannot be requested";
        };
    }

    /** RESET/INIT → INIT: writes the attributes and returns the mask. */
    static int init(QpType type, InitAttributes a, MemorySegment attr) {
        ibv_qp_attr.qp_state(attr, QpState.INIT.value());
        ibv_qp_attr.pkey_index(attr, (short) a.pkeyIndex());
        ibv_qp_attr.port_num(attr, (byte) a.port());
        int mask = STATE | PKEY_INDEX | PORT;
        if (type == QpType.UD) {
            if (a.qkey() == null) {
                throw missing("INIT", type, "a Q_Key (InitAttributes.datagram(port, qkey))");
            }
            if (!a.remoteAccess().isEmpty()) {
                throw invalid("INIT", type, "remote access flags apply to RC and UC QPs only");
            }
            ibv_qp_attr.qkey(attr, a.qkey());
            return mask | QKEY;
        }
        if (a.qkey() != null) {
            throw invalid("INIT", type, "a Q_Key applies to UD QPs only");
        }
        Set<Access> allowed = type == QpType.RC ? RC_REMOTE_ACCESS : UC_REMOTE_ACCESS;
        Set<Access> remote = EnumSet.noneOf(Access.class);
        for (Access flag : a.remoteAccess()) {
            if (MEMORY_ONLY_ACCESS.contains(flag)) {
                continue; // belongs to the memory region's registration, not to the QP
            }
            remote.add(flag);
            if (!allowed.contains(flag)) {
                throw invalid("INIT", type, "remote access " + flag + " is not possible on a " + type
                        + " QP (allowed: " + allowed + ")");
            }
        }
        ibv_qp_attr.qp_access_flags(attr, Access.mask(remote));
        return mask | ACCESS_FLAGS;
    }

    /**
     * INIT → RTR. {@code globalRouteRequired} is true on RoCE ports, where a destination without
     * a GID cannot be reached.
     */
    static int rtr(QpType type, RtrAttributes a, boolean globalRouteRequired, MemorySegment attr) {
        ibv_qp_attr.qp_state(attr, QpState.RTR.value());
        if (type == QpType.UD) {
            if (a.remote != null || a.pathMtu != null || a.destQpNumber != null || a.rqPsn != null
                    || a.maxDestRdAtomic != null || a.minRnrTimer != null) {
                throw invalid("RTR", type, "a UD QP takes no peer at RTR; address each send with an AddressHandle "
                        + "(use RtrAttributes.datagram())");
            }
            return STATE;
        }
        if (a.remote == null) {
            throw missing("RTR", type, "the remote address (AddressVector)");
        }
        if (a.pathMtu == null) {
            throw missing("RTR", type, "a path MTU");
        }
        if (a.destQpNumber == null) {
            throw missing("RTR", type, "destination QP number");
        }
        if (a.rqPsn == null) {
            throw missing("RTR", type, "the receive PSN (the peer's send PSN)");
        }
        if (globalRouteRequired && !a.remote.isGlobal()) {
            throw missing("RTR", type, "a destination GID: the port is RoCE, which addresses peers by GID");
        }
        a.remote.writeTo(ibv_qp_attr.ah_attr(attr));
        ibv_qp_attr.path_mtu(attr, a.pathMtu.value());
        ibv_qp_attr.dest_qp_num(attr, a.destQpNumber);
        ibv_qp_attr.rq_psn(attr, a.rqPsn);
        int mask = STATE | AV | PATH_MTU | DEST_QPN | RQ_PSN;
        if (type == QpType.UC) {
            if (a.maxDestRdAtomic != null || a.minRnrTimer != null) {
                throw invalid("RTR", type, "max destination RD atomic and min RNR timer apply to RC QPs only");
            }
            return mask;
        }
        ibv_qp_attr.max_dest_rd_atomic(attr, (byte) orDefault(a.maxDestRdAtomic, DEFAULT_MAX_DEST_RD_ATOMIC));
        ibv_qp_attr.min_rnr_timer(attr, (byte) orDefault(a.minRnrTimer, DEFAULT_MIN_RNR_TIMER));
        return mask | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER;
    }

    /** RTR → RTS. */
    static int rts(QpType type, RtsAttributes a, MemorySegment attr) {
        ibv_qp_attr.qp_state(attr, QpState.RTS.value());
        if (a.sqPsn == null) {
            throw missing("RTS", type, "the send PSN");
        }
        ibv_qp_attr.sq_psn(attr, a.sqPsn);
        if (type != QpType.RC) {
            if (a.timeout != null || a.retryCount != null || a.rnrRetry != null || a.maxRdAtomic != null) {
                throw invalid("RTS", type, "timeout, retry counts and max RD atomic apply to RC QPs only");
            }
            return STATE | SQ_PSN;
        }
        ibv_qp_attr.timeout(attr, (byte) orDefault(a.timeout, DEFAULT_TIMEOUT));
        ibv_qp_attr.retry_cnt(attr, (byte) orDefault(a.retryCount, DEFAULT_RETRY_COUNT));
        ibv_qp_attr.rnr_retry(attr, (byte) orDefault(a.rnrRetry, DEFAULT_RNR_RETRY));
        ibv_qp_attr.max_rd_atomic(attr, (byte) orDefault(a.maxRdAtomic, DEFAULT_MAX_RD_ATOMIC));
        return STATE | SQ_PSN | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC;
    }

    /** Transitions that take nothing but the new state (ERR, RESET, SQD, SQD/SQE → RTS). */
    static int stateOnly(QpState to, MemorySegment attr) {
        ibv_qp_attr.qp_state(attr, to.value());
        return STATE;
    }

    private static int orDefault(Integer value, int fallback) {
        return value != null ? value : fallback;
    }

    private static IllegalArgumentException missing(String state, QpType type, String what) {
        return new IllegalArgumentException(state + " for " + type + " needs " + what);
    }

    private static IllegalArgumentException invalid(String state, QpType type, String why) {
        return new IllegalArgumentException(state + " for " + type + ": " + why);
    }
}
