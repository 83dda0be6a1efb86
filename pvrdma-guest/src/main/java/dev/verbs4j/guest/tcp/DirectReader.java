package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.channel.BufferWaiter;
import dev.verbs4j.guest.channel.ChannelInbox;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.loop.spi.LoopEngine;
import dev.verbs4j.unix.LinuxCallException;
import dev.verbs4j.unix.NativeSocket;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A thread that waits in {@code receive(ReceiveBuffer, Duration)} (EVENT and ADAPTIVE) reads a
 * TCP channel's socket itself, waiting in the read as a blocking socket's reader does: the reply
 * wakes that one thread, not the loop and then the thread. Meanwhile the socket is out of the
 * loop's IN set (errors still reach the loop), and it stays out for
 * {@link SocketInterest#DIRECT_LINGER_NANOS} after the last such receive, as the next one likely
 * follows; then the loop reads it again.
 *
 * <p>The thread holds the reading lock while it reads, which guards the socket's receive time-out
 * here, the inbound buffer and the waiter {@link ArrivingFrames} fills; it takes the interest lock
 * inside, briefly, to take the input from the loop and to hand it back.
 */
final class DirectReader {
    private final NativeSocket socket;
    private final TcpInbound inbound;
    private final ReentrantLock reading;
    private final SocketInterest interest;
    private final ArrivingFrames frames;
    private final LoopReads loopReads;
    private final ChannelInbox inbox;
    private final TcpChannel channel;
    private final CompletionLoop loop;
    private final LoopEngine engine;
    /** The socket's receive time-out now. */
    private long receiveTimeoutMicros = TcpChannel.WAIT_SLICE_MICROS;

    DirectReader(NativeSocket socket, TcpInbound inbound, ReentrantLock reading, SocketInterest interest,
                 ArrivingFrames frames, LoopReads loopReads, ChannelInbox inbox, TcpChannel channel,
                 CompletionLoop loop) {
        this.socket = socket;
        this.inbound = inbound;
        this.reading = reading;
        this.interest = interest;
        this.frames = frames;
        this.loopReads = loopReads;
        this.inbox = inbox;
        this.channel = channel;
        this.loop = loop;
        this.engine = loop.engine();
    }

    /**
     * Waits for the waiter's message by reading the socket; false when this thread may not (a
     * BUSY loop spins anyway; or another thread reads, or the channel is going): it drives the
     * loop instead.
     */
    boolean await(BufferWaiter waiter, long timeoutNanos) {
        if (loop.mode() == CompletionMode.BUSY_POLL || !reading.tryLock()) {
            return false;
        }
        try {
            if (interest.takeInput()) {
                frames.readFor(waiter);
                readUntil(waiter, timeoutNanos);
                return true;
            }
            return false;
        } finally {
            leave();
        }
    }

    /**
     * Under the reading lock: reads and handles frames until the waiter has its message, the
     * time-out, or the end. A message whose frame starts at the socket's head is read straight
     * into the waiter's native buffer (no copy), as a blocking socket's reader reads into its own.
     */
    private void readUntil(BufferWaiter waiter, long timeoutNanos) {
        MemorySegment memory = waiter.target().memory();
        MemorySegment zone = memory.isNative() ? memory : null;
        long start = System.nanoTime();
        boolean adaptive = loop.mode() == CompletionMode.ADAPTIVE;
        long spinUntil = adaptive ? start + engine.spinNanos() : start;
        try {
            while (!waiter.getAsBoolean() && channel.endCause() == null) {
                long now = System.nanoTime();
                long left = timeoutNanos - (now - start);
                if (left <= 0 || Thread.currentThread().isInterrupted()) {
                    return;
                }
                if (inbound.holdsFrame()) { // left by the last receive: before the socket
                    inbound.handleBuffered();
                    continue;
                }
                boolean wait = now - spinUntil >= 0;
                if (wait) {
                    limitWait(left);
                }
                long n = zone != null ? inbound.read(socket, zone, wait) : inbound.read(socket, wait);
                if (n < 0) {
                    channel.eof();
                    return;
                }
                if (n > 0 && adaptive) {
                    spinUntil = System.nanoTime() + engine.spinNanos();
                }
            }
        } catch (LinuxCallException e) {
            channel.lost(e);
        }
    }

    /** Bounds the next waiting read by the receive's time-out (a system call only when the bound changes). */
    private void limitWait(long leftNanos) {
        long micros = leftNanos >= TcpChannel.WAIT_SLICE_MICROS * 1000 ? TcpChannel.WAIT_SLICE_MICROS
                : (leftNanos + 999_999) / 1_000_000 * 1000; // whole milliseconds: a few calls, not one per read
        if (micros != receiveTimeoutMicros) {
            socket.setReceiveTimeout(micros);
            receiveTimeoutMicros = micros;
        }
    }

    /**
     * Lets go of the reading lock. Other receives still waiting get the loop back at once; the
     * last reader out closes the socket if the channel was released meanwhile.
     */
    private void leave() {
        BufferWaiter waiter = frames.directReader();
        if (waiter != null) {
            inbound.giveBack(waiter.target().memory());
            frames.readFor(null);
        }
        interest.directReadEnded();
        boolean othersWait = inbox.hasWaiters();
        if (othersWait) {
            interest.watchInput();
        }
        boolean framesLeft = inbound.holdsFrame();
        reading.unlock();
        if (!othersWait) {
            interest.lingerThenWatch();
        }
        channel.closeIfReleased();
        if (othersWait && framesLeft) {
            loopReads.handleBufferedLater(); // the loop reads only what the socket reports: these are already read
        }
    }
}
