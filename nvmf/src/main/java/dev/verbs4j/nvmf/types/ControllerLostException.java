package dev.verbs4j.nvmf.types;

/**
 * The controller was lost: a transport failure was not repaired by reconnecting within the
 * controller loss timeout (or reconnecting is off, or the controller came back as another one).
 * I/O held while reconnecting fails with it; it was not completed by the target, or not known to be.
 */
public final class ControllerLostException extends NvmfTransportException {
    public ControllerLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
