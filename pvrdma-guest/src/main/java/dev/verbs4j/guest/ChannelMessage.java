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
     * The message's bytes on the heap.
     *
     * @return a new array with a copy of {@link #data()}
     */
    public byte[] toArray() {
        return data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }
}
