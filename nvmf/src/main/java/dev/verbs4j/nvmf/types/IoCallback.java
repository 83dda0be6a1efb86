package dev.verbs4j.nvmf.types;

/**
 * Completion of an I/O submitted with a callback: called on the thread that polls, with
 * {@code error} null on success. The allocation-free form of the asynchronous API.
 */
@FunctionalInterface
public interface IoCallback {
    /**
     * One I/O finished. It runs inside {@link dev.verbs4j.nvmf.NvmfController#poll()} (or in a pass of the
     * progress thread's completion loop, on its thread or on a thread that waits for I/O) while that
     * I/O queue's lock is held: keep it short, and do not wait for other I/O.
     *
     * @param tag   the tag the I/O was submitted with
     * @param error null on success; otherwise what failed ({@link NvmeStatusException} for a
     *              status the target returned, {@link NvmfTransportException} when the queue broke)
     */
    void completed(long tag, NvmfException error);
}
