package dev.verbs4j.nvmf.wire;

import dev.verbs4j.nvmf.types.ConnectRejectedException;
import dev.verbs4j.nvmf.types.HostNotAllowedException;
import dev.verbs4j.nvmf.types.InvalidNamespaceException;
import dev.verbs4j.nvmf.types.LbaOutOfRangeException;
import dev.verbs4j.nvmf.types.NvmeStatus;
import dev.verbs4j.nvmf.types.NvmeStatusException;

/** Turns a non-zero CQE status into the named exception. */
public final class StatusDecoder {
    private StatusDecoder() {
    }

    /**
     * @param command  what was sent, for the message ("Read", "Connect"...)
     * @param status   {@link Cqe#status}: the CQE status field without the phase bit
     * @param result   DW0 and DW1 of the CQE (Connect puts IPO/IATTR in DW0)
     * @param fabrics  whether the command was a Fabrics command (SCT 1 codes 0x80+ mean Connect's)
     */
    public static NvmeStatusException exception(String command, int status, long result, boolean fabrics) {
        int sct = Cqe.statusCodeType(status);
        int sc = Cqe.statusCode(status);
        NvmeStatus named = NvmeStatus.of(sct, sc);
        if (sct == 0 && sc == 0x80) {
            return new LbaOutOfRangeException(command, status, named, null);
        }
        if (sct == 0 && sc == 0x0B) {
            return new InvalidNamespaceException(command, status, named, null);
        }
        if (fabrics && sct == 1 && sc == 0x82) {
            return new ConnectRejectedException(command, status, named, result);
        }
        if (fabrics && sct == 1 && sc == 0x84) {
            return new HostNotAllowedException(command, status, named, "the subsystem does not allow this host NQN");
        }
        return new NvmeStatusException(command, status, named, null);
    }
}
