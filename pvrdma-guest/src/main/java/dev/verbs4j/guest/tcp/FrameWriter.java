package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.channel.ChannelOperations;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.unix.Iovecs;
import dev.verbs4j.unix.LinuxCallException;
import dev.verbs4j.unix.NativeSocket;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Puts a TCP channel's frames on its socket, in order. A sender writes header and payload with
 * one writev straight from a reusable header and the payload's own memory when nothing is queued
 * ahead of it (no thread hop, no copy, no allocation); what the socket does not take at once is
 * copied to {@link TcpOutbound} and written by the loop, so the caller may reuse its memory
 * either way. A thread in {@code send} (EVENT and ADAPTIVE) with a native payload instead lends
 * the rest to the queue and waits until the socket has taken it, writing it as room frees up, as
 * a blocking socket's writer waits in its write ({@link #awaitLentPayload}). A thread that streams
 * small frames (sends back to back, nothing arriving between) has them queued, and the loop
 * writes many per writev ({@link SendStreak}): a segment each would cost more than their bytes.
 *
 * <p>Owns the write lock, which orders frames on the socket and guards every field here (the
 * queue, its marks, the header memory) but the volatile ones. Taken inside the reading lock and
 * around the interest lock (see the package's notes); never held while waiting for the socket. A
 * write failure is recorded under it and reported after it ({@link #afterWrite}): ending the
 * channel takes the lock.
 */
final class FrameWriter {
    /** How {@link #enqueue} got a frame out: all of it at once, or the rest queued as a copy or lent. */
    private static final int SENT = 0, QUEUED = 1, LENT = 2;

    private final Object lock = new Object();
    private final NativeSocket socket;
    private final SocketInterest interest;
    private final TcpChannel channel;
    private final CompletionLoop loop;
    private final ChannelConfig config;
    private final ChannelOperations operations;
    /** How many reads of the socket have brought bytes ({@link TcpInbound#reads}): a send after one does not stream. */
    private final LongSupplier readsSoFar;
    private final TcpOutbound outbound = new TcpOutbound();
    /** Whether the senders' small frames form a stream, for the loop to write in batches. */
    private final SendStreak streak = new SendStreak();
    /**
     * What a flush found written, reused: one for the loop's passes (one pass at a time), one for
     * the lending sender (one lender at a time), so neither allocates per flush.
     */
    private final WrittenFrames passWritten = new WrittenFrames();
    private final WrittenFrames lenderWritten = new WrittenFrames();
    // native memory owned by the GC, so nothing can touch freed memory after a close
    private final MemorySegment header = Arena.ofAuto().allocate(TcpFrame.MAX_HEADER, 8);
    private final Iovecs iovecs = new Iovecs(Arena.ofAuto(), 2);
    /** Heap payloads are copied here to be written (writev needs native addresses). */
    private MemorySegment heapCopy = MemorySegment.NULL;
    /** A sender waits in {@link #awaitLentPayload} (one at a time: it polls with the socket's one pollfd). */
    private boolean lenderWaits;
    /** Frames this end has sent or queued; written under the lock, read by the loop's stream polling. */
    private volatile long framesSent;
    /** A write that failed, to be reported once the lock is released. */
    private volatile LinuxCallException writeFailure;

    FrameWriter(NativeSocket socket, SocketInterest interest, TcpChannel channel, CompletionLoop loop,
                ChannelConfig config, ChannelOperations operations, LongSupplier readsSoFar) {
        this.socket = socket;
        this.interest = interest;
        this.channel = channel;
        this.loop = loop;
        this.config = config;
        this.operations = operations;
        this.readsSoFar = readsSoFar;
    }

    /** Frames this end has sent or queued so far. */
    long framesSent() {
        return framesSent;
    }

    // ---- the frames ------------------------------------------------------------------------

    /**
     * Sends a MESSAGE; {@code done} (null for an offer) completes once it is out. With
     * {@code mayWait} the caller may wait for the socket: true when it must, in
     * {@link #awaitLentPayload}, after {@link #afterWrite}.
     */
    boolean message(MemorySegment payload, boolean hasImmediate, int immediate, CompletableFuture<Void> done,
                    boolean mayWait) {
        synchronized (lock) {
            checkWritable();
            int h = TcpFrame.message(header, payload.byteSize(), hasImmediate, immediate);
            boolean mayLend = mayWait && done != null && payload.isNative() && sendersWaitForTheSocket();
            int how = enqueue(h, payload, null, mayLend);
            if (how == SENT) {
                operations.endUntracked(done, null); // it went at once: nothing to track
                return false;
            }
            long id = operations.add(done); // under the lock: the mark is where this frame ends
            outbound.markOperation(id);
            return how == LENT;
        }
    }

    /** Sends a WRITE of {@code payload} for operation {@code id} (done when the peer answers). */
    void write(long id, long address, int key, MemorySegment payload) {
        synchronized (lock) {
            checkWritable();
            enqueue(TcpFrame.write(header, id, address, key, payload.byteSize()), payload, null, false);
        }
    }

    /** Sends a READ for operation {@code id} (done when the peer's data is in). */
    void read(long id, long address, int key, int length) {
        synchronized (lock) {
            checkWritable();
            enqueue(TcpFrame.read(header, id, address, key, length), MemorySegment.NULL, null, false);
        }
    }

    /** Sends CLOSE behind everything queued, and shuts the socket's output down once it is out. */
    void goodbye() {
        synchronized (lock) {
            checkWritable();
            enqueue(TcpFrame.close(header), MemorySegment.NULL, socket::shutdownOutput, false);
        }
    }

    /**
     * Tells the peer this end stopped reading ({@code holding}) or reads again: while it holds,
     * the peer's writes stall on a closed window, which is no sign of a lost link. Nothing when
     * the connection is closing.
     */
    void holding(boolean holding) {
        synchronized (lock) {
            try {
                checkWritable();
                enqueue(TcpFrame.hold(header, holding), MemorySegment.NULL, null, false);
            } catch (ChannelException e) {
                // the channel is ending: there is no window left to stall on
            }
        }
    }

    /** Answers the peer's WRITE; as {@link #respond}. */
    ChannelException writeDone(long id, ChannelException refused) {
        synchronized (lock) {
            byte status = refused == null ? TcpFrame.STATUS_OK : TcpFrame.STATUS_REMOTE_ACCESS;
            return respond(TcpFrame.writeDone(header, id, status), MemorySegment.NULL, refused);
        }
    }

    /** Answers the peer's READ with {@code source} (NULL when refused); as {@link #respond}. */
    ChannelException readDone(long id, MemorySegment source, ChannelException refused) {
        synchronized (lock) {
            byte status = refused == null ? TcpFrame.STATUS_OK : TcpFrame.STATUS_REMOTE_ACCESS;
            return respond(TcpFrame.readDone(header, id, status, source.byteSize()), source, refused);
        }
    }

    /**
     * Under the lock: sends a response. A refusal ends the channel once it is out: returned to
     * end it after the lock when it went at once (or cannot go), else when the loop wrote it.
     */
    private ChannelException respond(int headerLength, MemorySegment payload, ChannelException refused) {
        try {
            checkWritable();
            if (enqueue(headerLength, payload, null, false) == SENT) {
                return refused;
            }
            outbound.mark(refused == null ? null : () -> channel.endWith(refused));
            return null;
        } catch (ChannelException e) {
            return refused;
        }
    }

    // ---- the socket ------------------------------------------------------------------------

    private void checkWritable() {
        if (interest.released() || !socket.isOpen() || writeFailure != null) {
            throw new ChannelException(ChannelError.PEER_LOST, "the connection is closed");
        }
    }

    /**
     * Under the lock: writes {@code headerLength} bytes of {@link #header} and then
     * {@code payload} now if nothing is queued ahead, else (or what the socket does not take)
     * queues a copy for the loop. {@code written} runs once the frame is out: here when it went
     * at once, later otherwise. With {@code mayLend}, a payload the socket took only part of is
     * lent to the queue instead of copied: the caller then waits in {@link #awaitLentPayload}.
     */
    private int enqueue(int headerLength, MemorySegment payload, Runnable written, boolean mayLend) {
        long length = payload.byteSize();
        long payloadAddress = length == 0 ? 0 : nativeAddress(payload);
        framesSent++; // under the lock: one writer
        // the loop's own sends go straight out: it cannot wait for a free slot in the send queue
        boolean counted = !loop.inLoop();
        boolean batched = counted && streak.batches(headerLength + length, readsSoFar.getAsLong(), System.nanoTime());
        long sent = 0;
        if (outbound.isEmpty() && !batched) {
            try {
                sent = socket.write(iovecs.clear().add(header.address(), headerLength).add(payloadAddress, length));
            } catch (LinuxCallException e) {
                writeFailure = e;
                throw new ChannelException(ChannelError.PEER_LOST, "writing to the peer failed: " + e.getMessage(), e);
            }
            if (counted) {
                streak.sentAt(System.nanoTime());
            }
        }
        if (sent == headerLength + length) {
            if (written != null) {
                written.run();
            }
            return SENT;
        }
        if (mayLend && !batched && length > 0 && !lenderWaits && outbound.isEmpty()) {
            long headerSent = Math.min(sent, headerLength);
            outbound.lend(header, headerSent, headerLength - headerSent,
                    payloadAddress + (sent - headerSent), length - (sent - headerSent));
            outbound.mark(written);
            lenderWaits = true;
            return LENT;
        }
        if (sent < headerLength) {
            outbound.add(header.address() + sent, headerLength - sent);
            outbound.add(payloadAddress, length);
        } else {
            outbound.add(payloadAddress + (sent - headerLength), length - (sent - headerLength));
        }
        outbound.mark(written);
        askForWrites();
        return QUEUED;
    }

    /** Under the lock: the loop writes what is queued once the socket has room. */
    private void askForWrites() {
        try {
            interest.askForWrites();
        } catch (LinuxCallException e) {
            writeFailure = e;
            throw new ChannelException(ChannelError.PEER_LOST, "the connection is closing: " + e.getMessage(), e);
        }
    }

    /**
     * Whether a sender may wait for the socket itself: not the loop's thread (it must not block),
     * and not in BUSY mode, where the sender drives the loop anyway.
     */
    private boolean sendersWaitForTheSocket() {
        return loop.mode() != CompletionMode.BUSY_POLL && !loop.inLoop();
    }

    /**
     * A sender whose payload the queue borrowed waits until the socket has taken it, and writes
     * it as the socket makes room, as a blocking socket's writer waits in its write: no copy, and
     * no hop through the loop. The lock is held only to write, so the loop can still answer the
     * peer (a response queues behind the lent bytes). Past the send time-out, or when
     * interrupted, what is left is copied and left to the loop, as for a send that did not wait.
     */
    void awaitLentPayload() {
        long deadline = System.nanoTime() + config.sendTimeout().toNanos();
        try {
            boolean lentLeft = true;
            while (lentLeft && !interest.released()) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || Thread.currentThread().isInterrupted()) {
                    return;
                }
                socket.awaitWritable((int) Math.max(1, Math.min(TcpChannel.WAIT_SLICE_MICROS / 1000, left / 1_000_000)));
                lentLeft = flush(lenderWritten);
            }
        } finally {
            synchronized (lock) {
                lenderWaits = false;
                if (outbound.holdsLent()) { // the caller's memory is its own again once this returns
                    outbound.copyLent();
                    try {
                        askForWrites();
                    } catch (ChannelException e) {
                        // the write failure is recorded: reported below
                    }
                }
            }
            afterWrite();
        }
    }

    /** Where the payload's bytes are in native memory: its own, or a copy for heap memory. */
    private long nativeAddress(MemorySegment payload) {
        if (payload.isNative()) {
            return payload.address();
        }
        if (heapCopy.byteSize() < payload.byteSize()) {
            heapCopy = Arena.ofAuto().allocate(Math.max(payload.byteSize(), 2 * heapCopy.byteSize()), 64);
        }
        MemorySegment.copy(payload, 0, heapCopy, 0, payload.byteSize());
        return heapCopy.address();
    }

    /** After the lock: reports a write failure (the channel is lost). */
    void afterWrite() {
        LinuxCallException failure = writeFailure;
        if (failure != null && channel.endCause() == null) {
            channel.lost(failure);
        }
    }

    /** Loop thread, the socket has room (or an error): writes what is queued. */
    void flushForLoop() {
        flush(passWritten);
    }

    /**
     * Writes what is queued while the socket takes it: the loop, or a sender whose payload is
     * lent. True while lent bytes are left.
     */
    private boolean flush(WrittenFrames reusable) {
        boolean lentLeft;
        WrittenFrames done;
        synchronized (lock) {
            if (interest.released() || !socket.isOpen()) {
                return false;
            }
            done = reusable.claim();
            try {
                if (outbound.writeTo(socket, done)) {
                    interest.writesDone();
                }
            } catch (LinuxCallException e) {
                writeFailure = e;
            }
            lentLeft = outbound.holdsLent() && writeFailure == null;
        }
        afterWrite();
        done.runAndClear(operations);
        return lentLeft;
    }

    /**
     * A sender whose whole frame went at once completes its operation under the lock, right
     * after the write. Waiting for the lock before failing what is in flight keeps such a send
     * from failing: on a slow machine the peer can take the frame, answer and close (and this
     * loop read the close) before the sender runs its next line.
     */
    void awaitSenders() {
        synchronized (lock) {
            // only waits out a sender between its write and its completion
        }
    }

    /** Senders check under the lock before they touch the socket or its epoll entry: then none does again. */
    void release() {
        synchronized (lock) {
            interest.release();
            outbound.clear();
        }
    }
}
