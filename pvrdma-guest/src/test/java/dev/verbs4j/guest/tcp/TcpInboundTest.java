package dev.verbs4j.guest.tcp;

import dev.verbs4j.unix.testing.LoopbackSockets;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.unix.NativeSocket;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the TCP channel's reader sizes its reads, on a real loopback socket. */
class TcpInboundTest {
    private static final int SMALL = 100, LARGE = TcpInbound.LARGE_FRAME;

    @Test
    void afterALargeFrameReadsGoFrameByFrameLengthFirstAndSmallFramesAgainTakeAllThereIs() throws Exception {
        try (Pair p = new Pair()) {
            p.send(SMALL, SMALL, LARGE); // all in the socket before the first read
            long sent = p.buffered;
            List<Long> first = p.readAll(3);
            assertEquals(1, first.size(), "small frames so far: one read takes all there is");
            assertTrue(first.get(0) >= sent, "it asks for the buffer's room: " + first);

            p.send(LARGE, SMALL, SMALL);
            long largeRest = TcpFrame.MESSAGE_HEADER - TcpFrame.LENGTH_FIELD + LARGE;
            long smallRest = TcpFrame.MESSAGE_HEADER - TcpFrame.LENGTH_FIELD + SMALL;
            // the large frame, then the small one after it, each as its length and then its rest;
            // after a small frame, one read takes the last one, asking for the buffer's room again
            assertEquals(List.of((long) TcpFrame.LENGTH_FIELD, largeRest, (long) TcpFrame.LENGTH_FIELD, smallRest,
                    first.get(0)), p.readAll(3));
            assertEquals(List.of(SMALL, SMALL, LARGE, LARGE, SMALL, SMALL), p.lengths, "every payload, in order");
        }
    }

    /** A loopback pair: frames written at one end, read by a {@link TcpInbound} at the other. */
    private static final class Pair implements TcpInbound.Frames, AutoCloseable {
        final Arena arena = Arena.ofConfined();
        final LoopbackSockets sockets = LoopbackSockets.open();
        final NativeSocket sender = sockets.sender();
        final NativeSocket receiver = sockets.receiver();
        final TcpInbound inbound = new TcpInbound(LARGE, this);
        final List<Integer> lengths = new ArrayList<>();
        /** Bytes sent and not yet read. */
        long buffered;
        private byte tag;

        Pair() throws Exception {}

        /** Sends MESSAGE frames with payloads of these sizes, each byte its frame's tag. */
        void send(int... payloads) {
            for (int size : payloads) {
                MemorySegment frame = arena.allocate(TcpFrame.MAX_HEADER + size);
                int h = TcpFrame.message(frame, size, false, 0);
                frame.asSlice(h, size).fill(++tag);
                long length = h + size;
                for (long at = 0; at < length; ) {
                    at += sender.write(frame.address() + at, length - at);
                }
                buffered += length;
            }
        }

        /** Reads until {@code frames} more have arrived; what each read asked for. */
        List<Long> readAll(int frames) {
            List<Long> asked = new ArrayList<>();
            int until = lengths.size() + frames;
            while (lengths.size() < until) {
                long length = inbound.nextReadLength();
                long n = inbound.read(receiver, length, true);
                if (n > 0) {
                    asked.add(length);
                    buffered -= n;
                }
            }
            return asked;
        }

        @Override
        public void frame(MemorySegment buffer, long at, int length) {
            assertEquals(TcpFrame.MESSAGE, buffer.get(ValueLayout.JAVA_BYTE, at));
            int payload = length - TcpFrame.MESSAGE_FIELDS;
            byte expected = (byte) (lengths.size() + 1);
            for (long i = 0; i < payload; i++) {
                assertEquals(expected, buffer.get(ValueLayout.JAVA_BYTE, at + TcpFrame.MESSAGE_FIELDS + i));
            }
            lengths.add(payload);
        }

        @Override
        public void landed(MemorySegment zone, int length, boolean hasImmediate, int immediate) {
            throw new AssertionError("no zone was offered");
        }

        @Override
        public void corrupt(String why) {
            throw new AssertionError(why);
        }

        @Override
        public long longestPayload(byte type) {
            return 0; // messages only
        }

        @Override
        public boolean stopHere() {
            return false;
        }

        @Override
        public void close() {
            sockets.close();
            arena.close();
        }
    }
}
