package dev.verbs4j.nvmf.types;

/**
 * The connection failed or broke: rdma_cm refused or could not reach the target, a work request
 * completed in error (the peer is gone), the target went silent beyond the keep-alive period, or
 * the controller was closed with commands outstanding. The controller is unusable afterwards.
 */
public class NvmfTransportException extends NvmfException {
    /**
     * A transport failure with no underlying cause.
     *
     * @param message what failed
     */
    public NvmfTransportException(String message) {
        super(message);
    }

    /**
     * A transport failure caused by another exception.
     *
     * @param message what failed
     * @param cause   the verbs or rdma_cm error under it
     */
    public NvmfTransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
