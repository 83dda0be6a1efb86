package dev.verbs4j.nvmf.types;

/**
 * The controller was lost: a transport failure was not repaired by reconnecting before the
 * controller loss timeout's attempts were spent, or the controller came back as another one (its
 * identity or a namespace's size changed). The I/O held while reconnecting fails with it; the
 * target did not complete it, or did not say so.
 */
public final class ControllerLostException extends NvmfTransportException {
    /**
     * A lost controller.
     *
     * @param message what was lost and why
     * @param cause   the transport failure that started the reconnect, or the last attempt's failure
     */
    public ControllerLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
