package dev.verbs4j.nvmf;

/**
 * The target completed a command with a non-zero status. {@link #status()} names it; the common
 * ones have their own subclasses ({@link LbaOutOfRangeException}, {@link InvalidNamespaceException},
 * {@link ConnectRejectedException}, {@link HostNotAllowedException}).
 */
public class NvmeStatusException extends NvmfException {
    private final NvmeStatus status;
    private final int rawStatus;
    private final String command;

    public NvmeStatusException(String command, int rawStatus, NvmeStatus status, String detail) {
        super(command + ": " + status.description() + " (SCT " + ((rawStatus >>> 8) & 7) + ", SC 0x"
                + Integer.toHexString(rawStatus & 0xFF) + (doNotRetry(rawStatus) ? ", do not retry" : "") + ")"
                + (detail == null ? "" : ": " + detail));
        this.status = status;
        this.rawStatus = rawStatus;
        this.command = command;
    }

    public NvmeStatus status() {
        return status;
    }

    /** The CQE status field without the phase bit: SC 7:0, SCT 10:8, CRD 12:11, M 13, DNR 14. */
    public int rawStatus() {
        return rawStatus;
    }

    public String command() {
        return command;
    }

    public boolean doNotRetry() {
        return doNotRetry(rawStatus);
    }

    private static boolean doNotRetry(int raw) {
        return (raw & 0x4000) != 0;
    }
}
