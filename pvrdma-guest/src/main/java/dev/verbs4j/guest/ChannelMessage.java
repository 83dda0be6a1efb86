package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;

/**
 * A message as received: its bytes (a copy the receiver owns) and the immediate data, if the
 * sender attached any.
 *
 * @param data         the message's bytes, owned by the receiver (valid for as long as the
 *                     receiver keeps the message)
 * @param hasImmediate whether the sender attached immediate data
 * @param immediate    the immediate data, 0 when there is none
 */
public record ChannelMessage(MemorySegment data, boolean hasImmediate, int immediate) {

    /**
     * The message's size.
     *
     * @return the size of {@link #data()} in bytes
     */
    public int length() {
        return (int) data.byteSize();
    }

    /**
     * A message owning a heap copy of {@code [offset, offset + length)} of {@code buffer}.
     *
     * @param buffer       memory holding the message's bytes
     * @param offset       where they start
     * @param length       how many
     * @param hasImmediate whether the sender attached immediate data
     * @param immediate    the immediate data, 0 when there is none
     * @return the message
     */
    public static ChannelMessage copyOf(MemorySegment buffer, long offset, int length, boolean hasImmediate,
                                        int immediate) {
        byte[] copy = new byte[length];
        MemorySegment.copy(buffer, java.lang.foreign.ValueLayout.JAVA_BYTE, offset, copy, 0, length);
        return new ChannelMessage(MemorySegment.ofArray(copy), hasImmediate, immediate);
    }

    /**
     * The message's bytes on the heap.
     *
     * @return a new array with a copy of {@link #data()}
     */
    public byte[] toArray() {
        return data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }
}
