package dev.verbs4j.nvmf;

/**
 * Connect failed with Connect Invalid Parameters (SCT 1, SC 0x82): {@link #invalidOffset()} says
 * which field the target refused, e.g. {@link #unknownSubsystem()} for a subsystem NQN it does not
 * have. A refusal at the rdma_cm level (REJECTED) is an {@link NvmfTransportException}.
 */
public final class ConnectRejectedException extends NvmeStatusException {
    /** Byte offset of SUBNQN in the Connect data. */
    public static final int SUBNQN_OFFSET = 256;
    private final int invalidOffset;
    private final boolean inData;

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

    /** IPO: the offset of the invalid field. */
    public int invalidOffset() {
        return invalidOffset;
    }

    /** IATTR: true when the field is in the Connect data, false when in the SQE. */
    public boolean inConnectData() {
        return inData;
    }

    public boolean unknownSubsystem() {
        return inData && invalidOffset == SUBNQN_OFFSET;
    }
}
