package dev.verbs4j.nvmf.queue;

import dev.verbs4j.nvmf.types.NvmfException;

/** Told, on the polling thread, when a command's send and response have both completed, or when the queue failed. */
public interface CommandListener {
    /** {@code status} is the CQE status without the phase bit (0 = success); {@code result} is DW0 | DW1 << 32. */
    void completed(int slot, long tag, int status, long result);

    void failed(int slot, long tag, NvmfException cause);
}
