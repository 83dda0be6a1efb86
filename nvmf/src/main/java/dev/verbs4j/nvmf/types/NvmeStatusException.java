package dev.verbs4j.nvmf.types;

/**
 * The target completed a command with a non-zero status. {@link #status()} names it; the common
 * ones have their own subclasses ({@link LbaOutOfRangeException}, {@link InvalidNamespaceException},
 * {@link ConnectRejectedException}, {@link HostNotAllowedException}). The controller still works:
 * only this command failed.
 */
public class NvmeStatusException extends NvmfException {
    /** The decoded status. */
    private final NvmeStatus status;
    /** The completion's 15-bit status field, as received. */
    private final int rawStatus;
    /** The command that failed, as named in the message. */
    private final String command;

    /**
     * Made by the controller from a completion's status field.
     *
     * @param command   the command that failed, for the message
     * @param rawStatus the completion's 15-bit status field (see {@link #rawStatus()})
     * @param status    the decoded status
     * @param detail    what the status means here, or null
     */
    public NvmeStatusException(String command, int rawStatus, NvmeStatus status, String detail) {
        super(command + ": " + status.description() + " (SCT " + ((rawStatus >>> 8) & 7) + ", SC 0x"
                + Integer.toHexString(rawStatus & 0xFF) + (doNotRetry(rawStatus) ? ", do not retry" : "") + ")"
                + (detail == null ? "" : ": " + detail));
        this.status = status;
        this.rawStatus = rawStatus;
        this.command = command;
    }

    /**
     * The decoded status.
     *
     * @return the status, {@link NvmeStatus#UNKNOWN} when it has no name here
     */
    public NvmeStatus status() {
        return status;
    }

    /**
     * The completion's status field without the phase bit.
     *
     * @return SC in bits 7:0, SCT 10:8, CRD 12:11, M 13, DNR 14
     */
    public int rawStatus() {
        return rawStatus;
    }

    /**
     * The command that failed.
     *
     * @return its name as the message gives it, e.g. "Read" or "Connect"
     */
    public String command() {
        return command;
    }

    /**
     * DNR: the target says the same command would fail again.
     *
     * @return true when the Do Not Retry bit is set
     */
    public boolean doNotRetry() {
        return doNotRetry(rawStatus);
    }

    private static boolean doNotRetry(int raw) {
        return (raw & 0x4000) != 0;
    }
}
