package dev.verbs4j.nvmf.types;

/**
 * Connect refused this host NQN: the subsystem does not list it among its allowed hosts (on a
 * Linux target: {@code allowed_hosts} in configfs, or {@code attr_allow_any_host} = 0).
 */
public final class HostNotAllowedException extends NvmeStatusException {
    /**
     * Made by the controller from a completion's status field.
     *
     * @param command   the command that failed, for the message
     * @param rawStatus the completion's 15-bit status field (SCT, SC, DNR and MORE bits)
     * @param status    the decoded status
     * @param detail    what the status means here
     */
    public HostNotAllowedException(String command, int rawStatus, NvmeStatus status, String detail) {
        super(command, rawStatus, status, detail);
    }
}
