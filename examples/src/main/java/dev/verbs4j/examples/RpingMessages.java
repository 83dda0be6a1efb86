package dev.verbs4j.examples;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * rping's payloads. Control messages are 16-byte SENDs of {@code struct rping_rdma_info
 * {__be64 buf; __be32 rkey; __be32 size;}} advertising a buffer; ping data is a C string
 * {@code "rdma-ping-%d: "} followed by rotating letters 'A'..'z', NUL in the last byte.
 */
final class RpingMessages {
    static final int INFO_SIZE = 16;
    /** sizeof("2147483647") + sizeof("rdma-ping-%d: "), the smallest -S rping accepts. */
    static final int MIN_SIZE = 11 + 15;
    /** RPING_BUFSIZE; -S must stay below it. */
    static final int MAX_SIZE_EXCLUSIVE = 64 * 1024;
    static final int FIRST_LETTER = 'A';
    static final int LAST_LETTER = 'z';

    private RpingMessages() {}

    /** A buffer advertisement: where the peer may RDMA-read or -write, with which key and length. */
    record BufferInfo(long address, int rkey, int size) {
        byte[] encode() {
            return ByteBuffer.allocate(INFO_SIZE).order(ByteOrder.BIG_ENDIAN).putLong(address).putInt(rkey)
                    .putInt(size).array();
        }

        static BufferInfo decode(byte[] message) {
            if (message.length != INFO_SIZE) {
                throw new IllegalArgumentException("Received bogus data, size " + message.length);
            }
            ByteBuffer b = ByteBuffer.wrap(message).order(ByteOrder.BIG_ENDIAN);
            return new BufferInfo(b.getLong(), b.getInt(), b.getInt());
        }
    }

    /** The letter the ping number {@code ping} starts its fill with: 'A' for ping 0, cycling through 'z'. */
    static int startLetter(int ping) {
        return FIRST_LETTER + Math.floorMod(ping, LAST_LETTER - FIRST_LETTER + 1);
    }

    /** The {@code size} bytes the client puts in its start buffer for ping number {@code ping}. */
    static byte[] pingData(int ping, int size) {
        byte[] data = new byte[size];
        byte[] prefix = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        // snprintf(buf, size, ...) keeps at most size-1 characters
        int cc = Math.min(prefix.length, size - 1);
        System.arraycopy(prefix, 0, data, 0, cc);
        int c = startLetter(ping);
        for (int i = prefix.length; i < size; i++) {
            data[i] = (byte) c;
            c = c == LAST_LETTER ? FIRST_LETTER : c + 1;
        }
        data[size - 1] = 0;
        return data;
    }

    /** The bytes up to the first NUL, as printf("%s") shows them. */
    static String cString(byte[] data) {
        int n = 0;
        while (n < data.length && data[n] != 0) {
            n++;
        }
        return new String(data, 0, n, StandardCharsets.US_ASCII);
    }

    /** strlen(buf) + 1: how much of the read data the server writes back. */
    static int echoLength(byte[] data) {
        int n = 0;
        while (n < data.length && data[n] != 0) {
            n++;
        }
        return Math.min(n + 1, data.length);
    }
}
