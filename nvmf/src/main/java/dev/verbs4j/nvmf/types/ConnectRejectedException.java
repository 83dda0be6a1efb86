package dev.verbs4j.nvmf.types;

/**
 * Connect failed with Connect Invalid Parameters (SCT 1, SC 0x82): {@link #invalidOffset()} says
 * which field the target refused, e.g. {@link #unknownSubsystem()} for a subsystem NQN it does not
 * have. A refusal at the rdma_cm level (REJECTED) is an {@link NvmfTransportException}.
 *
 * <p>An immutable exception: it owns nothing and may be passed between threads.
 */
public final class ConnectRejectedException extends NvmeStatusException {
    /** Byte offset of SUBNQN in the Connect data. */
    public static final int SUBNQN_OFFSET = 256;
    /** IPO: the byte offset of the invalid parameter. */
    private final int invalidOffset;
    /** IATTR: true when the offset is in the Connect data, false when in the command. */
    private final boolean inData;

    /**
     * Made by the controller from a failed Connect's completion.
     *
     * @param command   the command that failed, for the message
     * @param rawStatus the completion's 15-bit status field
     * @param status    the decoded status (Connect Invalid Parameters)
     * @param result    the completion's command-specific dword: IATTR (bit 16) and IPO (bits 15:0)
     */
    public ConnectRejectedException(String command, int rawStatus, NvmeStatus status, long result) {
        super(command, rawStatus, status, describe(result));
        this.invalidOffset = (int) (result & 0xFFFF);
        this.inData = ((result >>> 16) & 1) != 0;
    }

    private static String describe(long result) {
        int ipo = (int) (result & 0xFFFF);
        boolean data = ((result >>> 16) & 1) != 0;
        if (data && ipo == SUBNQN_OFFSET) {
            return "the target has no subsystem with this NQN";
        }
        return "invalid " + (data ? "connect data" : "command") + " field at byte " + ipo;
    }

    /**
     * IPO: where the invalid field is.
     *
     * @return its byte offset in the Connect data or the SQE, as {@link #inConnectData()} says
     */
    public int invalidOffset() {
        return invalidOffset;
    }

    /**
     * IATTR: where {@link #invalidOffset()} counts from.
     *
     * @return true when the field is in the Connect data, false when in the SQE
     */
    public boolean inConnectData() {
        return inData;
    }

    /**
     * Whether the target refused the subsystem NQN: it has no subsystem by that name.
     *
     * @return true when the invalid field is SUBNQN in the Connect data
     */
    public boolean unknownSubsystem() {
        return inData && invalidOffset == SUBNQN_OFFSET;
    }
}
