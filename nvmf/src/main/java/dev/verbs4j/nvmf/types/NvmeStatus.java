package dev.verbs4j.nvmf.types;

/**
 * NVMe completion status codes by status code type (SCT) and status code (SC): generic (SCT 0),
 * command specific (SCT 1, admin, fabrics and NVM), media and data integrity (SCT 2) and path
 * related (SCT 3), as the NVMe base, NVM command set and NVMe over Fabrics specifications name them.
 * A pair this enum does not list is {@link #UNKNOWN}.
 */
public enum NvmeStatus {
    /** SCT 0, SC 0x00: successful completion. */
    SUCCESS(0, 0x00, "successful completion"),
    /** SCT 0, SC 0x01: invalid command opcode. */
    INVALID_OPCODE(0, 0x01, "invalid command opcode"),
    /** SCT 0, SC 0x02: invalid field in command. */
    INVALID_FIELD(0, 0x02, "invalid field in command"),
    /** SCT 0, SC 0x03: command id conflict. */
    COMMAND_ID_CONFLICT(0, 0x03, "command id conflict"),
    /** SCT 0, SC 0x04: data transfer error. */
    DATA_TRANSFER_ERROR(0, 0x04, "data transfer error"),
    /** SCT 0, SC 0x05: commands aborted due to power loss notification. */
    ABORTED_POWER_LOSS(0, 0x05, "commands aborted due to power loss notification"),
    /** SCT 0, SC 0x06: internal error. */
    INTERNAL_ERROR(0, 0x06, "internal error"),
    /** SCT 0, SC 0x07: command abort requested. */
    ABORT_REQUESTED(0, 0x07, "command abort requested"),
    /** SCT 0, SC 0x08: command aborted due to SQ deletion. */
    ABORTED_SQ_DELETION(0, 0x08, "command aborted due to SQ deletion"),
    /** SCT 0, SC 0x09: command aborted due to failed fused command. */
    ABORTED_FAILED_FUSED(0, 0x09, "command aborted due to failed fused command"),
    /** SCT 0, SC 0x0A: command aborted due to missing fused command. */
    ABORTED_MISSING_FUSED(0, 0x0A, "command aborted due to missing fused command"),
    /** SCT 0, SC 0x0B: invalid namespace or format. */
    INVALID_NAMESPACE(0, 0x0B, "invalid namespace or format"),
    /** SCT 0, SC 0x0C: command sequence error. */
    COMMAND_SEQUENCE_ERROR(0, 0x0C, "command sequence error"),
    /** SCT 0, SC 0x0D: invalid SGL segment descriptor. */
    INVALID_SGL_SEGMENT(0, 0x0D, "invalid SGL segment descriptor"),
    /** SCT 0, SC 0x0E: invalid number of SGL descriptors. */
    INVALID_SGL_COUNT(0, 0x0E, "invalid number of SGL descriptors"),
    /** SCT 0, SC 0x0F: data SGL length invalid. */
    DATA_SGL_LENGTH_INVALID(0, 0x0F, "data SGL length invalid"),
    /** SCT 0, SC 0x10: metadata SGL length invalid. */
    METADATA_SGL_LENGTH_INVALID(0, 0x10, "metadata SGL length invalid"),
    /** SCT 0, SC 0x11: SGL descriptor type invalid. */
    SGL_TYPE_INVALID(0, 0x11, "SGL descriptor type invalid"),
    /** SCT 0, SC 0x12: invalid use of controller memory buffer. */
    INVALID_CMB_USE(0, 0x12, "invalid use of controller memory buffer"),
    /** SCT 0, SC 0x13: PRP offset invalid. */
    PRP_OFFSET_INVALID(0, 0x13, "PRP offset invalid"),
    /** SCT 0, SC 0x14: atomic write unit exceeded. */
    ATOMIC_WRITE_UNIT_EXCEEDED(0, 0x14, "atomic write unit exceeded"),
    /** SCT 0, SC 0x15: operation denied. */
    OPERATION_DENIED(0, 0x15, "operation denied"),
    /** SCT 0, SC 0x16: SGL offset invalid. */
    SGL_OFFSET_INVALID(0, 0x16, "SGL offset invalid"),
    /** SCT 0, SC 0x18: host identifier inconsistent format. */
    HOST_ID_INCONSISTENT_FORMAT(0, 0x18, "host identifier inconsistent format"),
    /** SCT 0, SC 0x19: keep alive timer expired. */
    KEEP_ALIVE_EXPIRED(0, 0x19, "keep alive timer expired"),
    /** SCT 0, SC 0x1A: keep alive timeout invalid. */
    KEEP_ALIVE_INVALID(0, 0x1A, "keep alive timeout invalid"),
    /** SCT 0, SC 0x1B: command aborted due to preempt and abort. */
    ABORTED_PREEMPT(0, 0x1B, "command aborted due to preempt and abort"),
    /** SCT 0, SC 0x1C: sanitize failed. */
    SANITIZE_FAILED(0, 0x1C, "sanitize failed"),
    /** SCT 0, SC 0x1D: sanitize in progress. */
    SANITIZE_IN_PROGRESS(0, 0x1D, "sanitize in progress"),
    /** SCT 0, SC 0x1E: SGL data block granularity invalid. */
    SGL_GRANULARITY_INVALID(0, 0x1E, "SGL data block granularity invalid"),
    /** SCT 0, SC 0x1F: command not supported for queue in CMB. */
    NOT_SUPPORTED_IN_CMB(0, 0x1F, "command not supported for queue in CMB"),
    /** SCT 0, SC 0x20: namespace is write protected. */
    NAMESPACE_WRITE_PROTECTED(0, 0x20, "namespace is write protected"),
    /** SCT 0, SC 0x21: command interrupted. */
    COMMAND_INTERRUPTED(0, 0x21, "command interrupted"),
    /** SCT 0, SC 0x22: transient transport error. */
    TRANSIENT_TRANSPORT_ERROR(0, 0x22, "transient transport error"),
    /** SCT 0, SC 0x80: LBA out of range. */
    LBA_OUT_OF_RANGE(0, 0x80, "LBA out of range"),
    /** SCT 0, SC 0x81: capacity exceeded. */
    CAPACITY_EXCEEDED(0, 0x81, "capacity exceeded"),
    /** SCT 0, SC 0x82: namespace not ready. */
    NAMESPACE_NOT_READY(0, 0x82, "namespace not ready"),
    /** SCT 0, SC 0x83: reservation conflict. */
    RESERVATION_CONFLICT(0, 0x83, "reservation conflict"),
    /** SCT 0, SC 0x84: format in progress. */
    FORMAT_IN_PROGRESS(0, 0x84, "format in progress"),

    /** SCT 1, SC 0x00: completion queue invalid. */
    INVALID_COMPLETION_QUEUE(1, 0x00, "completion queue invalid"),
    /** SCT 1, SC 0x01: invalid queue identifier. */
    INVALID_QUEUE_ID(1, 0x01, "invalid queue identifier"),
    /** SCT 1, SC 0x02: invalid queue size. */
    INVALID_QUEUE_SIZE(1, 0x02, "invalid queue size"),
    /** SCT 1, SC 0x03: abort command limit exceeded. */
    ABORT_LIMIT_EXCEEDED(1, 0x03, "abort command limit exceeded"),
    /** SCT 1, SC 0x05: asynchronous event request limit exceeded. */
    ASYNC_EVENT_LIMIT_EXCEEDED(1, 0x05, "asynchronous event request limit exceeded"),
    /** SCT 1, SC 0x06: invalid firmware slot. */
    INVALID_FIRMWARE_SLOT(1, 0x06, "invalid firmware slot"),
    /** SCT 1, SC 0x07: invalid firmware image. */
    INVALID_FIRMWARE_IMAGE(1, 0x07, "invalid firmware image"),
    /** SCT 1, SC 0x08: invalid interrupt vector. */
    INVALID_INTERRUPT_VECTOR(1, 0x08, "invalid interrupt vector"),
    /** SCT 1, SC 0x09: invalid log page. */
    INVALID_LOG_PAGE(1, 0x09, "invalid log page"),
    /** SCT 1, SC 0x0A: invalid format. */
    INVALID_FORMAT(1, 0x0A, "invalid format"),
    /** SCT 1, SC 0x0D: feature identifier not saveable. */
    FEATURE_NOT_SAVEABLE(1, 0x0D, "feature identifier not saveable"),
    /** SCT 1, SC 0x0E: feature not changeable. */
    FEATURE_NOT_CHANGEABLE(1, 0x0E, "feature not changeable"),
    /** SCT 1, SC 0x0F: feature not namespace specific. */
    FEATURE_NOT_NAMESPACE_SPECIFIC(1, 0x0F, "feature not namespace specific"),
    /** SCT 1, SC 0x15: namespace insufficient capacity. */
    NAMESPACE_INSUFFICIENT_CAPACITY(1, 0x15, "namespace insufficient capacity"),
    /** SCT 1, SC 0x16: namespace identifier unavailable. */
    NAMESPACE_ID_UNAVAILABLE(1, 0x16, "namespace identifier unavailable"),
    /** SCT 1, SC 0x18: namespace already attached. */
    NAMESPACE_ALREADY_ATTACHED(1, 0x18, "namespace already attached"),
    /** SCT 1, SC 0x19: namespace is private. */
    NAMESPACE_IS_PRIVATE(1, 0x19, "namespace is private"),
    /** SCT 1, SC 0x1A: namespace not attached. */
    NAMESPACE_NOT_ATTACHED(1, 0x1A, "namespace not attached"),
    /** SCT 1, SC 0x24: ANA group identifier invalid. */
    ANA_GROUP_ID_INVALID(1, 0x24, "ANA group identifier invalid"),
    /** SCT 1, SC 0x80: conflicting attributes (NVM command set) or incompatible format (Connect). */
    CONFLICTING_ATTRIBUTES_OR_INCOMPATIBLE_FORMAT(1, 0x80,
            "conflicting attributes (NVM) / incompatible format (Connect)"),
    /** SCT 1, SC 0x81: invalid protection information (NVM command set) or controller busy (Connect). */
    INVALID_PROTECTION_INFO_OR_CONTROLLER_BUSY(1, 0x81,
            "invalid protection information (NVM) / controller busy (Connect)"),
    /** SCT 1, SC 0x82: write to a read-only range (NVM command set) or invalid Connect parameters. */
    WRITE_TO_READ_ONLY_OR_CONNECT_INVALID_PARAMETERS(1, 0x82,
            "attempted write to read only range (NVM) / connect invalid parameters (Connect)"),
    /** SCT 1, SC 0x83: connect restart discovery. */
    CONNECT_RESTART_DISCOVERY(1, 0x83, "connect restart discovery"),
    /** SCT 1, SC 0x84: connect invalid host. */
    CONNECT_INVALID_HOST(1, 0x84, "connect invalid host"),
    /** SCT 1, SC 0x85: invalid queue type. */
    INVALID_QUEUE_TYPE(1, 0x85, "invalid queue type"),
    /** SCT 1, SC 0x90: discover restart. */
    DISCOVER_RESTART(1, 0x90, "discover restart"),
    /** SCT 1, SC 0x91: authentication required. */
    AUTHENTICATION_REQUIRED(1, 0x91, "authentication required"),

    /** SCT 2, SC 0x80: write fault. */
    WRITE_FAULT(2, 0x80, "write fault"),
    /** SCT 2, SC 0x81: unrecovered read error. */
    UNRECOVERED_READ_ERROR(2, 0x81, "unrecovered read error"),
    /** SCT 2, SC 0x82: end-to-end guard check error. */
    GUARD_CHECK_ERROR(2, 0x82, "end-to-end guard check error"),
    /** SCT 2, SC 0x83: end-to-end application tag check error. */
    APPLICATION_TAG_CHECK_ERROR(2, 0x83, "end-to-end application tag check error"),
    /** SCT 2, SC 0x84: end-to-end reference tag check error. */
    REFERENCE_TAG_CHECK_ERROR(2, 0x84, "end-to-end reference tag check error"),
    /** SCT 2, SC 0x85: compare failure. */
    COMPARE_FAILURE(2, 0x85, "compare failure"),
    /** SCT 2, SC 0x86: access denied. */
    ACCESS_DENIED(2, 0x86, "access denied"),
    /** SCT 2, SC 0x87: deallocated or unwritten logical block. */
    DEALLOCATED_OR_UNWRITTEN(2, 0x87, "deallocated or unwritten logical block"),

    /** SCT 3, SC 0x00: internal path error. */
    INTERNAL_PATH_ERROR(3, 0x00, "internal path error"),
    /** SCT 3, SC 0x01: asymmetric access persistent loss. */
    ANA_PERSISTENT_LOSS(3, 0x01, "asymmetric access persistent loss"),
    /** SCT 3, SC 0x02: asymmetric access inaccessible. */
    ANA_INACCESSIBLE(3, 0x02, "asymmetric access inaccessible"),
    /** SCT 3, SC 0x03: asymmetric access transition. */
    ANA_TRANSITION(3, 0x03, "asymmetric access transition"),
    /** SCT 3, SC 0x60: controller pathing error. */
    CONTROLLER_PATHING_ERROR(3, 0x60, "controller pathing error"),
    /** SCT 3, SC 0x70: host pathing error. */
    HOST_PATHING_ERROR(3, 0x70, "host pathing error"),
    /** SCT 3, SC 0x71: command aborted by host. */
    ABORTED_BY_HOST(3, 0x71, "command aborted by host"),

    /** A status this enum has no name for; {@link NvmeStatusException#rawStatus()} has the codes. */
    UNKNOWN(-1, -1, "unknown status");

    private static final NvmeStatus[][] BY_CODE = new NvmeStatus[8][256];

    static {
        for (NvmeStatus s : values()) {
            if (s.type >= 0) {
                BY_CODE[s.type][s.code] = s;
            }
        }
    }

    private final int type;
    private final int code;
    private final String description;

    NvmeStatus(int type, int code, String description) {
        this.type = type;
        this.code = code;
        this.description = description;
    }

    /**
     * The status code type (SCT).
     *
     * @return 0 generic, 1 command specific, 2 media and data integrity, 3 path related; -1 for {@link #UNKNOWN}
     */
    public int type() {
        return type;
    }

    /**
     * The status code (SC) within its type.
     *
     * @return 0..255; -1 for {@link #UNKNOWN}
     */
    public int code() {
        return code;
    }

    /**
     * The specification's name for the status, in lower case.
     *
     * @return e.g. "invalid namespace or format"
     */
    public String description() {
        return description;
    }

    /**
     * The status with these codes.
     *
     * @param statusCodeType SCT (only its low 3 bits are read)
     * @param statusCode     SC (only its low 8 bits are read)
     * @return the status, or {@link #UNKNOWN}
     */
    public static NvmeStatus of(int statusCodeType, int statusCode) {
        NvmeStatus s = BY_CODE[statusCodeType & 7][statusCode & 0xFF];
        return s == null ? UNKNOWN : s;
    }
}
