package dev.verbs4j.nvmf;

/**
 * Completion of an I/O submitted with a callback: called on the thread that polls, with
 * {@code error} null on success. The allocation-free form of the asynchronous API.
 */
@FunctionalInterface
public interface IoCallback {
    void completed(long tag, NvmfException error);
}
