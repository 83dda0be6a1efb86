package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/** Recognisable test payloads: byte i of pattern s is (s * 31 + i) & 0xff. */
final class ChannelTestBytes {
    private ChannelTestBytes() {}

    static MemorySegment pattern(int seed, int length) {
        byte[] b = new byte[length];
        fill(MemorySegment.ofArray(b), seed);
        return MemorySegment.ofArray(b);
    }

    static void fill(MemorySegment s, int seed) {
        for (long i = 0; i < s.byteSize(); i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (seed * 31 + i));
        }
    }

    /** Index of the first byte that breaks pattern {@code seed}, or -1. */
    static long mismatch(MemorySegment s, int seed) {
        for (long i = 0; i < s.byteSize(); i++) {
            if (s.get(ValueLayout.JAVA_BYTE, i) != (byte) (seed * 31 + i)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code messages} round trips through an echoing peer, message i pattern i of a length that
     * walks 1..maxMessage: each comes back with its length and bytes, without immediate data.
     */
    static void assertEchoes(Channel channel, int messages, int maxMessage) throws Exception {
        for (int i = 0; i < messages; i++) {
            int length = 1 + (i * 997) % maxMessage;
            channel.send(pattern(i, length)).get(60, TimeUnit.SECONDS);
            ChannelMessage echo = channel.receive().get(60, TimeUnit.SECONDS);
            assertEquals(length, echo.length(), "message " + i);
            assertEquals(-1, mismatch(echo.data(), i), "message " + i + " echoed exactly");
            assertFalse(echo.hasImmediate(), "message " + i + " came back without immediate data");
        }
    }
}
