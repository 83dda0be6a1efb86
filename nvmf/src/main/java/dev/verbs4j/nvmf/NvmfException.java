package dev.verbs4j.nvmf;

/** Base of every failure of the NVMe-oF host: an NVMe status, or the transport under it. */
public class NvmfException extends RuntimeException {
    public NvmfException(String message) {
        super(message);
    }

    public NvmfException(String message, Throwable cause) {
        super(message, cause);
    }
}
