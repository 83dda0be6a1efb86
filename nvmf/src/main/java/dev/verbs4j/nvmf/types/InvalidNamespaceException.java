package dev.verbs4j.nvmf.types;

/** The namespace id does not exist or its format cannot serve the command (generic status 0x0B). */
public final class InvalidNamespaceException extends NvmeStatusException {
    /**
     * Made by the controller from a completion's status field.
     *
     * @param command   the command that failed, for the message
     * @param rawStatus the completion's 15-bit status field (SCT, SC, DNR and MORE bits)
     * @param status    the decoded status
     * @param detail    what the status means here
     */
    public InvalidNamespaceException(String command, int rawStatus, NvmeStatus status, String detail) {
        super(command, rawStatus, status, detail);
    }
}
