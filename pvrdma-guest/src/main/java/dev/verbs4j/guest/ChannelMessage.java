package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;

/**
 * A message as received: its bytes (a copy the receiver owns) and the immediate data, if the
 * sender attached any.
 */
public record ChannelMessage(MemorySegment data, boolean hasImmediate, int immediate) {

    public int length() {
        return (int) data.byteSize();
    }

    public byte[] toArray() {
        return data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }
}
