package dev.verbs4j.nvmf;

/** Connect refused this host NQN */
public final class HostNotAllowedException extends NvmeStatusException {
    public HostNotAllowedException(String command, int rawStatus, NvmeStatus status, String detail) {
        super(command, rawStatus, status, detail);
    }
}
