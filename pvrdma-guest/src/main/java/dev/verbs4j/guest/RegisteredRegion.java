package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;

/**
 * Memory registered with a channel: the local side of one-sided operations, and what the peer
 * may write and read once it has {@link #remote()}. On RDMA this is a memory region; on TCP the
 * peer's requests are served against it with the same key and bounds checks.
 */
public interface RegisteredRegion extends AutoCloseable {

    MemorySegment memory();

    /** How the peer names this region: address, length and key. */
    RemoteRegion remote();

    default long address() {
        return memory().address();
    }

    default long length() {
        return memory().byteSize();
    }

    /** Deregisters: the peer's later accesses fail with {@link ChannelError#REMOTE_ACCESS}. */
    @Override
    void close();
}
