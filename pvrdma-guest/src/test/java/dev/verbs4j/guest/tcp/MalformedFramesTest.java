package dev.verbs4j.guest.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.unix.NativeSocket;
import dev.verbs4j.unix.testing.LoopbackSockets;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a buggy or hostile peer's frames do: a body too short for its type's fields, an unknown
 * type, a message over the agreed maximum, a one-sided write or read answer longer than this
 * side registered or asked for. Each is refused as such, with no field read past the
 * frame and no buffer grown for it.
 */
class MalformedFramesTest {
    private static final int MAX_MESSAGE = 4096;
    /** What this side registered and asked to read, as the bounds of a peer's WRITE and READ_DONE. */
    private static final int LARGEST_REGION = 8192, LONGEST_READ = 512;

    @Test
    void everyTypeWithABodyShorterThanItsFieldsIsMalformed() {
        try (Arena arena = Arena.ofConfined()) {
            for (byte type : new byte[] {TcpFrame.MESSAGE, TcpFrame.WRITE, TcpFrame.READ, TcpFrame.WRITE_DONE,
                    TcpFrame.READ_DONE, TcpFrame.CLOSE, TcpFrame.HOLD, TcpFrame.RESUME}) {
                int fields = TcpFrame.fields(type);
                for (int length = 1; length < fields; length++) {
                    // the body is exactly as long as the frame says: a read past it would fail
                    MemorySegment body = arena.allocate(length);
                    body.set(ValueLayout.JAVA_BYTE, 0, type);
                    Recorder r = new Recorder();
                    TcpFrame.decode(body, 0, length, r);
                    assertEquals(List.of("malformed"), r.calls, "type " + type + ", body of " + length);
                }
            }
        }
    }

    @Test
    void frameTypesWithoutPayloadMustBeExactlyTheirFieldsLong() {
        try (Arena arena = Arena.ofConfined()) {
            for (byte type : new byte[] {TcpFrame.READ, TcpFrame.WRITE_DONE, TcpFrame.CLOSE, TcpFrame.HOLD,
                    TcpFrame.RESUME}) {
                int length = TcpFrame.fields(type) + 3;
                MemorySegment body = arena.allocate(length);
                body.set(ValueLayout.JAVA_BYTE, 0, type);
                Recorder r = new Recorder();
                TcpFrame.decode(body, 0, length, r);
                assertEquals(List.of("malformed"), r.calls, "type " + type);
            }
        }
    }

    @Test
    void unknownTypeAndOversizedMessageAreRefusedBeforeTheirBodyArrives() throws Exception {
        assertRefusedEarly((byte) 99, 1 << 30, "unknown frame type 99");
        assertRefusedEarly(TcpFrame.MESSAGE, TcpFrame.MESSAGE_FIELDS + MAX_MESSAGE + 1,
                "a message of 4097 bytes, over the agreed maximum of 4096");
    }

    @Test
    void framesLongerThanThisSideCouldTakeAreRefusedBeforeTheirBodyArrives() throws Exception {
        assertRefusedEarly(TcpFrame.WRITE, TcpFrame.fields(TcpFrame.WRITE) + LARGEST_REGION + 1,
                "a one-sided write of 8193 bytes, larger than any region registered here (8192)");
        assertRefusedEarly(TcpFrame.READ_DONE, TcpFrame.fields(TcpFrame.READ_DONE) + LONGEST_READ + 1,
                "an answer of 513 bytes to reads of at most 512 bytes");
        assertRefusedEarly(TcpFrame.READ, 1 << 30, "a frame of type 3 with a body of 1073741824 bytes (its fields take 25)");
        assertRefusedEarly(TcpFrame.WRITE, 1 << 30, "a one-sided write of " + ((1 << 30) - TcpFrame.fields(TcpFrame.WRITE))
                + " bytes, larger than any region registered here (8192)");
    }

    @Test
    void aWholeMessageOverTheMaximumIsRefusedToo() throws Exception {
        try (Arena arena = Arena.ofConfined(); LoopbackSockets sockets = LoopbackSockets.open()) {
            MemorySegment frame = arena.allocate(TcpFrame.MAX_HEADER + MAX_MESSAGE + 1);
            int length = TcpFrame.message(frame, MAX_MESSAGE + 1, false, 0) + MAX_MESSAGE + 1;
            for (long at = 0; at < length; ) {
                at += sockets.sender().write(frame.address() + at, length - at);
            }
            Recorder r = new Recorder();
            TcpInbound inbound = new TcpInbound(MAX_MESSAGE, r);
            while (r.calls.isEmpty()) {
                assertTrue(inbound.read(sockets.receiver(), true) >= 0, "the connection is still there");
            }
            assertEquals(List.of("corrupt: a message of 4097 bytes, over the agreed maximum of 4096"), r.calls);
        }
    }

    /** Sends only a frame's length field and type: the reader refuses it without waiting for the body. */
    private static void assertRefusedEarly(byte type, int bodyLength, String why) throws Exception {
        try (Arena arena = Arena.ofConfined(); LoopbackSockets sockets = LoopbackSockets.open()) {
            MemorySegment head = arena.allocate(TcpFrame.LENGTH_FIELD + 1);
            head.set(TcpFrame.INT, 0, bodyLength);
            head.set(ValueLayout.JAVA_BYTE, TcpFrame.LENGTH_FIELD, type);
            NativeSocket sender = sockets.sender();
            assertEquals(head.byteSize(), sender.write(head.address(), head.byteSize()));
            Recorder r = new Recorder();
            TcpInbound inbound = new TcpInbound(MAX_MESSAGE, r);
            while (r.calls.isEmpty()) {
                assertTrue(inbound.read(sockets.receiver(), true) >= 0, "the connection is still there");
            }
            assertEquals(List.of("corrupt: " + why), r.calls);
        }
    }

    private static final class Recorder implements TcpFrame.Handler, TcpInbound.Frames {
        final List<String> calls = new ArrayList<>();

        @Override
        public void message(MemorySegment in, long payloadAt, int length, boolean hasImmediate, int immediate) {
            calls.add("message");
        }

        @Override
        public void writeRequest(long id, long address, int key, MemorySegment in, long payloadAt, int length) {
            calls.add("write");
        }

        @Override
        public void readRequest(long id, long address, int key, int length) {
            calls.add("read");
        }

        @Override
        public void writeDone(long id, byte status) {
            calls.add("writeDone");
        }

        @Override
        public void readDone(long id, byte status, MemorySegment in, long payloadAt, int length) {
            calls.add("readDone");
        }

        @Override
        public void peerHolds(boolean holding) {
            calls.add(holding ? "hold" : "resume");
        }

        @Override
        public void peerClosed() {
            calls.add("close");
        }

        @Override
        public void malformed(String why) {
            calls.add("malformed");
        }

        @Override
        public void frame(MemorySegment buffer, long at, int length) {
            calls.add("frame");
        }

        @Override
        public void landed(MemorySegment zone, int length, boolean hasImmediate, int immediate) {
            calls.add("landed");
        }

        @Override
        public void corrupt(String why) {
            calls.add("corrupt: " + why);
        }

        @Override
        public long longestPayload(byte type) {
            return type == TcpFrame.WRITE ? LARGEST_REGION : LONGEST_READ;
        }

        @Override
        public boolean stopHere() {
            return !calls.isEmpty();
        }
    }
}
