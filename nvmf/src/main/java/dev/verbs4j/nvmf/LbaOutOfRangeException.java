package dev.verbs4j.nvmf;

/** An LBA range beyond the namespace's size (generic status 0x80). */
public final class LbaOutOfRangeException extends NvmeStatusException {
    public LbaOutOfRangeException(String command, int rawStatus, NvmeStatus status, String detail) {
        super(command, rawStatus, status, detail);
    }
}
