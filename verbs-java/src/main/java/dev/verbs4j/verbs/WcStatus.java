package dev.verbs4j.verbs;

/**
 * The status of a work completion: enum ibv_wc_status, in order (the ordinal is the code).
 * {@link WorkCompletions#statusEnum(int)} gives it; anything but SUCCESS also moves an RC or UC QP
 * to ERR, which flushes the requests after it with {@link #WR_FLUSH_ERR}.
 */
public enum WcStatus {
    /** The work request completed. */
    SUCCESS,
    /** Local length error: a receive buffer too small for the message, or a send too long. */
    LOC_LEN_ERR,
    /** Local QP operation error: the request was invalid for the QP (e.g. inline data too long). */
    LOC_QP_OP_ERR,
    /** Local EE context operation error (RD only, unused). */
    LOC_EEC_OP_ERR,
    /** Local protection error: an SGE names memory its lkey does not cover, or a closed region. */
    LOC_PROT_ERR,
    /** Flushed: the QP went to ERR before this request was processed. */
    WR_FLUSH_ERR,
    /** Memory window bind failed. */
    MW_BIND_ERR,
    /** The responder sent an unexpected transport-level response. */
    BAD_RESP_ERR,
    /** Local access error: e.g. an atomic target not registered with local write. */
    LOC_ACCESS_ERR,
    /** The responder found the request invalid (e.g. a message longer than its receive buffer). */
    REM_INV_REQ_ERR,
    /** Remote access error: wrong rkey, address outside the region, or access not granted. */
    REM_ACCESS_ERR,
    /** The responder could not complete the operation (e.g. its receive queue failed). */
    REM_OP_ERR,
    /** Transport retries exhausted: the peer did not acknowledge (gone, or wrong GID/QPN). */
    RETRY_EXC_ERR,
    /** Receiver-not-ready retries exhausted: the peer posted no receive in time. */
    RNR_RETRY_EXC_ERR,
    /** Local RD domain violation (RD only, unused). */
    LOC_RDD_VIOL_ERR,
    /** Remote invalid RD request (RD only, unused). */
    REM_INV_RD_REQ_ERR,
    /** The responder aborted the operation. */
    REM_ABORT_ERR,
    /** Invalid EE context number (RD only, unused). */
    INV_EECN_ERR,
    /** Invalid EE context state (RD only, unused). */
    INV_EEC_STATE_ERR,
    /** A fatal device or transport error. */
    FATAL_ERR,
    /** The response timed out. */
    RESP_TIMEOUT_ERR,
    /** An error the provider does not classify further; see the vendor error. */
    GENERAL_ERR,
    /** Tag-matching error (tag-matching SRQs only). */
    TM_ERR,
    /** Tag-matching rendezvous incomplete (tag-matching SRQs only). */
    TM_RNDV_INCOMPLETE,
    /** A status code this library does not know; {@link #code()} is -1, so read the raw status. */
    UNKNOWN;

    private static final WcStatus[] VALUES = values();

    static WcStatus of(int code) {
        return code >= 0 && code < VALUES.length - 1 ? VALUES[code] : UNKNOWN;
    }

    /**
     * The numeric code (IBV_WC_*).
     *
     * @return the code, 0 for SUCCESS, or -1 for UNKNOWN
     */
    public int code() {
        return this == UNKNOWN ? -1 : ordinal();
    }
}
