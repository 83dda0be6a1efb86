package dev.verbs4j.nvmf;

/** A command got no response within the command timeout (by default the keep-alive timeout). */
public class NvmfTimeoutException extends NvmfTransportException {
    public NvmfTimeoutException(String message) {
        super(message);
    }
}
