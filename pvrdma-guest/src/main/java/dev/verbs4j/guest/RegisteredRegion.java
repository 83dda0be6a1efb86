package dev.verbs4j.guest;

import dev.verbs4j.verbs.RemoteRegion;
import java.lang.foreign.MemorySegment;

/**
 * Memory registered with a channel: the local side of one-sided operations, and what the peer
 * may write and read once it has {@link #remote()}. On RDMA this is a memory region; on TCP the
 * peer's requests are served against it with the same key and bounds checks.
 *
 * <p>Ownership: the caller of {@link Channel#register} closes it, before or after the channel.
 * Thread safety: the accessors may be called from any thread; the memory itself is shared with the
 * peer's one-sided operations, so the application orders its own reads and writes around them.
 */
public interface RegisteredRegion extends AutoCloseable {

    /**
     * The registered memory.
     *
     * @return a segment valid until {@link #close()}
     */
    MemorySegment memory();

    /**
     * How the peer names this region: address, length and key.
     *
     * @return the value to pass to the peer ({@link RemoteRegion#toSegment()})
     */
    RemoteRegion remote();

    /**
     * The region's start address.
     *
     * @return the native address of {@link #memory()}
     */
    default long address() {
        return memory().address();
    }

    /**
     * The region's size.
     *
     * @return the size in bytes
     */
    default long length() {
        return memory().byteSize();
    }

    /** Deregisters: the peer's later accesses fail with {@link ChannelError#REMOTE_ACCESS}. */
    @Override
    void close();
}
