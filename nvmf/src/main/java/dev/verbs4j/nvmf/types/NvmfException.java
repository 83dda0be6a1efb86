package dev.verbs4j.nvmf.types;

/**
 * Base of every failure of the NVMe-oF host: an NVMe status ({@link NvmeStatusException}), or the
 * transport under it ({@link NvmfTransportException}). Unchecked, as verbs-java's errors are.
 */
public class NvmfException extends RuntimeException {
    /**
     * A failure with no underlying cause.
     *
     * @param message what failed
     */
    public NvmfException(String message) {
        super(message);
    }

    /**
     * A failure caused by another exception (a verbs or rdma_cm error, for one).
     *
     * @param message what failed
     * @param cause   the underlying error
     */
    public NvmfException(String message, Throwable cause) {
        super(message, cause);
    }
}
