package dev.verbs4j.nvmf;

/** The namespace id does not exist or its format cannot serve the command (generic status 0x0B). */
public final class InvalidNamespaceException extends NvmeStatusException {
    public InvalidNamespaceException(String command, int rawStatus, NvmeStatus status, String detail) {
        super(command, rawStatus, status, detail);
    }
}
