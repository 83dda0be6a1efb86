package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Memory the caller owns and reuses, into which {@link Channel#receive(ReceiveBuffer,
 * java.time.Duration)} copies each message, as {@code java.net.DatagramSocket} receives into a
 * {@code DatagramPacket}: a thread that sends and waits for replies allocates nothing per
 * message. After a receive, the message is {@code [0, length())} of {@link #memory()}, until the
 * next receive into this buffer.
 *
 * <pre>{@code
 * ReceiveBuffer reply = new ReceiveBuffer(Arena.ofAuto().allocate(channel.maxMessageSize()));
 * while (running) {
 *     channel.send(request); // offer(...) sends without a future: then nothing is allocated
 *     if (channel.receive(reply, Duration.ofSeconds(5))) {
 *         handle(reply.memory(), reply.length());
 *     }
 * }
 * }</pre>
 *
 * <p>Not thread-safe, as a {@code DatagramPacket} is not: one receive at a time into a buffer,
 * and its contents read by the thread that received. While a receive waits, the transport may
 * read into the memory: after one that returns false, its contents are undefined.
 */
public final class ReceiveBuffer {
    private final MemorySegment memory;
    private int length;
    private boolean hasImmediate;
    private int immediate;

    /**
     * A buffer over {@code memory}: heap, or native from a shared, global or automatic arena (the
     * completion loop's thread may be the one that copies a message in), at least as large as
     * the largest message of the channels it receives from.
     *
     * @param memory where messages are copied to; writable
     * @throws IllegalArgumentException when {@code memory} is read-only, or confined to one thread
     */
    public ReceiveBuffer(MemorySegment memory) {
        if (memory.isReadOnly()) {
            throw new IllegalArgumentException("a receive buffer's memory must be writable");
        }
        if (!memory.isAccessibleBy(Thread.ofPlatform().unstarted(() -> { }))) {
            throw new IllegalArgumentException("a receive buffer's memory must be usable from the completion loop's "
                    + "thread: allocate it on the heap or from a shared, global or automatic arena, not a confined one");
        }
        this.memory = memory;
    }

    /**
     * The buffer's memory; the last message received is at its start.
     *
     * @return the memory given to the constructor
     */
    public MemorySegment memory() {
        return memory;
    }

    /**
     * How many bytes the last message received has.
     *
     * @return its length, 0 before the first receive
     */
    public int length() {
        return length;
    }

    /**
     * Whether the sender attached immediate data to the last message received.
     *
     * @return true if it did
     */
    public boolean hasImmediate() {
        return hasImmediate;
    }

    /**
     * The immediate data of the last message received.
     *
     * @return the immediate data, 0 when there is none
     */
    public int immediate() {
        return immediate;
    }

    /**
     * The last message received, as a slice of {@link #memory()} (allocates the slice).
     *
     * @return {@code [0, length())} of the memory
     */
    public MemorySegment message() {
        return memory.asSlice(0, length);
    }

    /**
     * Copies a message in, as a receive does: for the transports behind the channels, and for
     * tests; applications do not need it.
     *
     * @param source       memory holding the message
     * @param offset       where it starts
     * @param length       how many bytes it has; at most the buffer's size
     * @param hasImmediate whether the sender attached immediate data
     * @param immediate    the immediate data, 0 when there is none
     */
    public void fill(MemorySegment source, long offset, int length, boolean hasImmediate, int immediate) {
        MemorySegment.copy(source, ValueLayout.JAVA_BYTE, offset, memory, ValueLayout.JAVA_BYTE, 0, length);
        filled(length, hasImmediate, immediate);
    }

    /**
     * Takes a message that a transport read straight into {@link #memory()}, at its start: for
     * the transports behind the channels; applications do not need it.
     *
     * @param length       how many bytes it has
     * @param hasImmediate whether the sender attached immediate data
     * @param immediate    the immediate data, 0 when there is none
     */
    public void filled(int length, boolean hasImmediate, int immediate) {
        this.length = length;
        this.hasImmediate = hasImmediate;
        this.immediate = immediate;
    }
}
