package dev.verbs4j.nvmf.types;

/** A command got no response within the command timeout (by default the keep-alive timeout). */
public class NvmfTimeoutException extends NvmfTransportException {
    /**
     * Made by the controller when a command's deadline passes.
     *
     * @param message which command and how long it waited
     */
    public NvmfTimeoutException(String message) {
        super(message);
    }
}
