package dev.verbs4j.nvmf.controller;

import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.verbs.MemoryRegion;

/**
 * An asynchronous NVM command as it was submitted: what is needed to send it again, the same
 * data to the same blocks, after a reconnect, and whom to tell when it is done.
 */
public record HeldCommand(int opcode, int nsid, long lba, int blocks, MemoryRegion data, long offset, int length,
                          IoCallback callback, long tag) {
}
