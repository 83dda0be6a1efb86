package dev.verbs4j.verbs;

import java.util.ArrayList;
import java.util.List;

/**
 * enum ibv_qp_attr_mask: which fields of {@code struct ibv_qp_attr} a modify or query uses.
 * Kept as literals so mask logic can be checked on hosts without libibverbs; a unit test compares
 * them with the generated constants.
 */
final class QpAttrMask {
    static final int STATE = 1;
    static final int CUR_STATE = 1 << 1;
    static final int EN_SQD_ASYNC_NOTIFY = 1 << 2;
    static final int ACCESS_FLAGS = 1 << 3;
    static final int PKEY_INDEX = 1 << 4;
    static final int PORT = 1 << 5;
    static final int QKEY = 1 << 6;
    static final int AV = 1 << 7;
    static final int PATH_MTU = 1 << 8;
    static final int TIMEOUT = 1 << 9;
    static final int RETRY_CNT = 1 << 10;
    static final int RNR_RETRY = 1 << 11;
    static final int RQ_PSN = 1 << 12;
    static final int MAX_QP_RD_ATOMIC = 1 << 13;
    static final int ALT_PATH = 1 << 14;
    static final int MIN_RNR_TIMER = 1 << 15;
    static final int SQ_PSN = 1 << 16;
    static final int MAX_DEST_RD_ATOMIC = 1 << 17;
    static final int PATH_MIG_STATE = 1 << 18;
    static final int CAP = 1 << 19;
    static final int DEST_QPN = 1 << 20;

    private static final String[] NAMES = {"STATE", "CUR_STATE", "EN_SQD_ASYNC_NOTIFY", "ACCESS_FLAGS",
        "PKEY_INDEX", "PORT", "QKEY", "AV", "PATH_MTU", "TIMEOUT", "RETRY_CNT", "RNR_RETRY", "RQ_PSN",
        "MAX_QP_RD_ATOMIC", "ALT_PATH", "MIN_RNR_TIMER", "SQ_PSN", "MAX_DEST_RD_ATOMIC", "PATH_MIG_STATE", "CAP",
        "DEST_QPN"};

    private QpAttrMask() {}

    /** "STATE|PKEY_INDEX|PORT" for messages. */
    static String describe(int mask) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < NAMES.length; bit++) {
            if ((mask & (1 << bit)) != 0) {
                names.add(NAMES[bit]);
            }
        }
        return names.isEmpty() ? "0" : String.join("|", names);
    }
}
