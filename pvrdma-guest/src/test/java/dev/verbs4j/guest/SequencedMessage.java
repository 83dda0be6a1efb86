package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32C;

/**
 * Messages that prove themselves whole, in order and once: each carries its channel's number, its
 * sequence number and a CRC32C of everything else, and its size follows from its sequence number
 * (small and large mixed, the largest every fifth), so a message cut short, torn, repeated,
 * skipped or from another channel is named by {@link #check}.
 *
 * <p>Layout: int channel, int sequence, long CRC32C (of bytes 0-7 and 16 to the end), then bytes
 * derived from channel and sequence.
 */
final class SequencedMessage {
    static final int HEADER = 16;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private SequencedMessage() {}

    /** The size of message {@code sequence}: from the header alone up to {@code maxMessage}. */
    static int size(int sequence, int maxMessage) {
        if (sequence % 5 == 4) {
            return maxMessage;
        }
        return HEADER + (int) ((sequence * 7919L) % (maxMessage - HEADER + 1));
    }

    /** Writes message {@code sequence} of {@code channel} at the start of {@code into}; returns its size. */
    static int write(MemorySegment into, int channel, int sequence, int maxMessage) {
        int size = size(sequence, maxMessage);
        into.set(INT, 0, channel);
        into.set(INT, 4, sequence);
        int seed = channel * 31 + sequence;
        for (int i = HEADER; i < size; i++) {
            into.set(ValueLayout.JAVA_BYTE, i, (byte) (seed + i * 7));
        }
        into.set(LONG, 8, crc(into, size));
        return size;
    }

    /**
     * What is wrong with {@code message} ({@code length} bytes) as message {@code sequence} of
     * {@code channel}, or null when it is exactly that message.
     */
    static String check(MemorySegment message, long length, int channel, int sequence, int maxMessage) {
        if (length < HEADER) {
            return "message " + sequence + ": " + length + " bytes, shorter than the header";
        }
        int seenChannel = message.get(INT, 0), seenSequence = message.get(INT, 4);
        if (seenChannel != channel || seenSequence != sequence) {
            return "expected message " + sequence + " of channel " + channel + ", got message " + seenSequence
                    + " of channel " + seenChannel + " (" + length + " bytes)";
        }
        if (length != size(sequence, maxMessage)) {
            return "message " + sequence + ": " + length + " bytes, sent " + size(sequence, maxMessage);
        }
        if (message.get(LONG, 8) != crc(message, (int) length)) {
            return "message " + sequence + ": its checksum does not match its bytes";
        }
        return null;
    }

    /** The channel number a message names (the first message of a channel says which one it is). */
    static int channelOf(MemorySegment message, long length) {
        return length < HEADER ? Integer.MIN_VALUE : message.get(INT, 0);
    }

    private static long crc(MemorySegment message, int size) {
        CRC32C crc = new CRC32C();
        crc.update(message.asSlice(0, 8).asByteBuffer());
        crc.update(message.asSlice(HEADER, size - HEADER).asByteBuffer());
        return crc.getValue();
    }
}
