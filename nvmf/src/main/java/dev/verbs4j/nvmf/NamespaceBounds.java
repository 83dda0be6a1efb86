package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.types.LbaOutOfRangeException;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.nvmf.types.NvmeStatus;

/**
 * The host's own check that a command's blocks lie inside the namespace, with the size Identify
 * Namespace reported: a range past the end is refused before anything is sent. Targets answer
 * it differently (nvmet on a block device fails the bio and says Internal Error), and a
 * transfer split into several commands would otherwise move the blocks before the end first.
 */
final class NamespaceBounds {
    /** The status the spec gives a range past the end (SCT 0, SC 0x80), with Do Not Retry: it would fail again. */
    private static final int LBA_OUT_OF_RANGE_DNR = 0x4000 | 0x80;

    private NamespaceBounds() {
    }

    /**
     * @param command    the command's name, for the message ("Read", "Write"...)
     * @param ns         what Identify Namespace reported
     * @param startBlock the first logical block
     * @param blocks     how many blocks, at least 1
     * @throws LbaOutOfRangeException when any block lies outside {@code [0, ns.size())}
     */
    static void check(String command, NamespaceIdentity ns, long startBlock, long blocks) {
        if (startBlock >= 0 && startBlock <= ns.size() - blocks) {
            return; // size - blocks cannot overflow: both are positive
        }
        String range = startBlock >= 0 && startBlock + blocks > 0
                ? "blocks " + startBlock + ".." + (startBlock + blocks - 1)
                : "blocks from " + Long.toUnsignedString(startBlock); // past 2^63: as the wire's u64 says
        throw new LbaOutOfRangeException(command, LBA_OUT_OF_RANGE_DNR, NvmeStatus.LBA_OUT_OF_RANGE, range
                + " (count " + blocks + ") are not all inside namespace " + ns.nsid() + ", which has " + ns.size()
                + " blocks (0.." + (ns.size() - 1) + ") of " + ns.blockSize() + " bytes; not sent to the target");
    }
}
