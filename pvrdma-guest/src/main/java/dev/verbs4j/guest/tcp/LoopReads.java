package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.loop.spi.LoopTimer;
import dev.verbs4j.unix.LinuxCallException;
import dev.verbs4j.unix.NativeSocket;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The completion loop's reads of a TCP channel's socket. The socket is level-triggered in the
 * epoll set: a read pass is bounded (other fds get their turn) and what it leaves is reported
 * again. In EVENT mode a one-way stream of small frames leaves the set while it lasts, and the
 * loop reads it on a timer instead ({@link ReceiveStream}): the sender's kernel then wakes nobody.
 *
 * <p>Loop thread only (its passes and timers), which also owns the stream's state here. Reads
 * under the reading lock, taken with tryLock: when a receiving thread holds it, that thread reads
 * and meets what the loop was told of.
 */
final class LoopReads {
    private static final int READS_PER_PASS = 16;

    private final NativeSocket socket;
    private final TcpInbound inbound;
    private final ReentrantLock reading;
    private final SocketInterest interest;
    private final FrameWriter writer;
    private final TcpChannel channel;
    private final CompletionLoop loop;
    /** Whether what the loop reads is a one-way stream, to poll. */
    private final ReceiveStream receiveStream = new ReceiveStream();
    private final LoopTimer pollTimer;
    /** Whether a one-way stream is polled at all: an EVENT loop in a process on more than one CPU. */
    private final boolean pollsStreams;

    LoopReads(NativeSocket socket, TcpInbound inbound, ReentrantLock reading, SocketInterest interest,
              FrameWriter writer, TcpChannel channel, CompletionLoop loop) {
        this.socket = socket;
        this.inbound = inbound;
        this.reading = reading;
        this.interest = interest;
        this.writer = writer;
        this.channel = channel;
        this.loop = loop;
        this.pollTimer = loop.engine().newTimer(this::pollStream);
        this.pollsStreams = ReceiveStream.SEVERAL_CPUS && loop.mode() == CompletionMode.EVENT;
    }

    /** In a pass, epoll reported input (or an error): reads it, and polls a stream from here on. */
    void onReadable() {
        if (interest.inputHeld() || !reading.tryLock()) {
            return; // a receiving thread reads
        }
        long streamable;
        try {
            streamable = readAvailableSmallFrames();
        } finally {
            reading.unlock();
        }
        if (streamable > 0 && pollsStreams && channel.endCause() == null
                && receiveStream.streams(writer.framesSent(), System.nanoTime())) {
            startPolling();
        }
    }

    /**
     * In a pass: the socket carries a one-way stream, so it leaves the epoll set and the loop
     * reads it on a timer at the stream's pace ({@link #pollStream}) rather than being woken by
     * each segment the sender's kernel delivers.
     */
    private void startPolling() {
        if (interest.startPolling()) {
            pollTimer.schedule(receiveStream.pollNanos());
        }
    }

    /**
     * A timer in a pass: reads what the stream brought since the last look, and looks again
     * when {@link ReceiveStream#nextLook} says, while it keeps coming with nothing sent from
     * here; else the socket rejoins the epoll set (what came meanwhile is reported at once). A
     * receiving thread that took the input ends the polling too: it reads from now on.
     */
    private void pollStream() {
        SocketInterest.Look look = interest.lookAtPolledInput();
        if (look == SocketInterest.Look.NONE) {
            return;
        }
        long next = -1;
        if (look == SocketInterest.Look.READ && channel.endCause() == null && !interest.inputHeld()
                && reading.tryLock()) {
            long streamable;
            try {
                streamable = readAvailableSmallFrames();
            } finally {
                reading.unlock();
            }
            if (streamable >= 0 && channel.endCause() == null) {
                next = receiveStream.nextLook(streamable, writer.framesSent(), System.nanoTime());
            }
        }
        if (next > 0) {
            pollTimer.schedule(next);
            return;
        }
        receiveStream.reset();
        interest.stopPolling();
    }

    /** Has the loop handle the whole frames a receiving thread left in the buffer. */
    void handleBufferedLater() {
        try {
            loop.execute(this::handleBufferedFrames);
        } catch (ChannelException stopped) {
            // the loop is gone, and the channel with it
        }
    }

    /** Loop thread: handles frames left in the buffer, unless a receiving thread reads (it handles them first). */
    void handleBufferedFrames() {
        if (channel.endCause() == null && reading.tryLock()) {
            try {
                inbound.handleBuffered();
            } finally {
                reading.unlock();
            }
        }
    }

    /**
     * Under the reading lock: {@link #readAvailable}, and how many bytes it read, or -1 when they
     * were of frames of {@link TcpInbound#LARGE_FRAME} or more. Only small frames are worth polling
     * for: a large frame's wake-ups are few for its bytes, and a loop that reads in timed bursts
     * let the socket fill and the sender wait (64 KiB messages streamed at 0.64 of plain NIO,
     * against 0.91 woken by each).
     */
    private long readAvailableSmallFrames() {
        long bytes = readAvailable();
        return bytes > 0 && inbound.framesAreLarge() ? -1 : bytes;
    }

    /** Reads what the socket holds, in up to {@link #READS_PER_PASS} reads; returns the bytes read. */
    private long readAvailable() {
        long bytes = 0;
        try {
            for (int i = 0; i < READS_PER_PASS; i++) {
                long asked = inbound.nextReadLength();
                long n = inbound.read(socket, asked, false);
                if (n < 0) {
                    channel.eof();
                    return bytes;
                }
                bytes += n;
                if (n == 0 || channel.endCause() != null || n < asked) {
                    return bytes; // a short read emptied the socket: epoll reports what comes next
                }
                if (interest.inputHeld()) {
                    return bytes; // the inbox is full: the rest waits in the kernel
                }
            }
        } catch (LinuxCallException e) {
            channel.lost(e);
        }
        return bytes;
    }
}
