package dev.verbs4j.nvmf.types;

/**
 * What Identify Namespace reports.
 *
 * @param nsid          the namespace id asked for
 * @param size          NSZE, in logical blocks
 * @param capacity      NCAP, in logical blocks
 * @param utilization   NUSE, in logical blocks
 * @param formatIndex   FLBAS bits 3:0: the LBA format in use
 * @param blockSize     the LBA data size of that format in bytes (2 ^ LBADS)
 * @param metadataSize  MS of that format
 * @param formatCount   NLBAF + 1
 *
 * <p>An immutable value: it owns nothing and may be shared between threads.
 */
public record NamespaceIdentity(int nsid, long size, long capacity, long utilization, int formatIndex,
                                int blockSize, int metadataSize, int formatCount) {

    /**
     * The namespace's size in bytes.
     *
     * @return NSZE times the block size
     */
    public long sizeBytes() {
        return size * blockSize;
    }
}
