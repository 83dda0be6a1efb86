package dev.verbs4j.nvmf.types;

/** An LBA range beyond the namespace's size (generic status 0x80). */
public final class LbaOutOfRangeException extends NvmeStatusException {
    /**
     * Made by the controller from a completion's status field.
     *
     * @param command   the command that failed, for the message
     * @param rawStatus the completion's 15-bit status field (SCT, SC, DNR and MORE bits)
     * @param status    the decoded status
     * @param detail    what the status means here
     */
    public LbaOutOfRangeException(String command, int rawStatus, NvmeStatus status, String detail) {
        super(command, rawStatus, status, detail);
    }
}
