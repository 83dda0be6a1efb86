package dev.verbs4j.guest.tcp;

import dev.verbs4j.unix.LinuxCallException;
import dev.verbs4j.guest.channel.BufferWaiter;
import dev.verbs4j.guest.channel.ChannelBase;
import dev.verbs4j.loop.spi.FdHandler;
import dev.verbs4j.loop.spi.LoopTimer;
import dev.verbs4j.guest.channel.RegionTable;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.verbs.RemoteRegion;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.unix.Epoll;
import dev.verbs4j.unix.Iovecs;
import dev.verbs4j.unix.NativeSocket;
import dev.verbs4j.loop.CompletionLoop;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel over a TCP socket of our own ({@link NativeSocket}, framed by {@link TcpFrame}),
 * watched by the completion loop's epoll set. The loop reads frames and serves the peer's
 * one-sided writes and reads against this side's registered regions, with the key and bounds
 * checks of an RDMA device. As on RDMA, an invalid access ends the connection for both sides:
 * the requester's operation fails with REMOTE_ACCESS, and so does the channel.
 *
 * <p>Senders write header and payload with one writev straight from a reusable header and the
 * payload's own memory when nothing is queued ahead of them (no thread hop, no copy, no
 * allocation); what the socket does not take at once is copied to {@link TcpOutbound} and
 * written by the loop, so the caller may reuse its memory either way. A thread in
 * {@link #send} (EVENT and ADAPTIVE) with a native payload instead lends the rest to the queue
 * and waits until the socket has taken it, writing it as room frees up, as a blocking socket's
 * writer waits in its write ({@link #awaitLentPayload}). A thread that streams small frames
 * (sends back to back, nothing arriving between) has them queued, and the loop writes many per
 * writev ({@link SendStreak}): a segment each would cost more than their bytes.
 *
 * <p>Three locks: {@link #writeLock} orders frames on the socket, {@link #reading} is held by
 * whoever reads it, and {@link #interestLock} guards what the loop watches it for. None is held
 * while waiting for the socket.
 *
 * <p>The socket is level-triggered in the epoll set: a read pass is bounded (other fds get their
 * turn) and what it leaves is reported again, and OUT is asked for only while bytes are queued.
 * In EVENT mode a one-way stream of small frames leaves the set while it lasts, and the loop
 * reads it on a timer instead ({@link ReceiveStream}): the sender's kernel then wakes nobody.
 *
 * <p>A thread that waits in {@link #receive(dev.verbs4j.guest.ReceiveBuffer, java.time.Duration)}
 * (EVENT and ADAPTIVE) reads the socket itself, waiting in the read as a blocking socket's
 * reader does: the reply wakes that one thread, not the loop and then the thread. Meanwhile the
 * socket is out of the loop's IN set (errors still reach the loop), and it stays out for
 * {@link #DIRECT_LINGER_NANOS} after the last such receive, as the next one likely follows; then
 * the loop reads it again. Whoever reads holds {@link #reading}, which guards {@link #inbound}.
 */
public final class TcpChannel extends ChannelBase implements FdHandler, TcpInbound.Frames, TcpFrame.Handler {
    private static final Logger LOG = LoggerFactory.getLogger(TcpChannel.class);
    private static final int READS_PER_PASS = 16;
    /**
     * A thread's longest wait on the socket in one call (a read, or a sender's poll): then it
     * looks at its time-out and interrupt flag again.
     */
    private static final long WAIT_SLICE_MICROS = 50_000;
    /** How long the socket stays out of the loop's IN set after the last receive that read it directly. */
    private static final long DIRECT_LINGER_NANOS = 10_000_000L;

    private final NativeSocket socket;
    private final RegionTable regions = new RegionTable();
    private final Object writeLock = new Object();
    /**
     * What a flush found written, reused: one for the loop's passes (one pass at a time), one for
     * the lending sender (one lender at a time), so neither allocates per flush.
     */
    private final WrittenFrames passWritten = new WrittenFrames();
    private final WrittenFrames lenderWritten = new WrittenFrames();
    /**
     * Guards what the loop watches the socket for ({@link #inputWatched}, {@link #writeInterest})
     * and its epoll entry. Held briefly, never across a write: a receiving thread takes it on
     * every receive, and must not wait out a sender's write. Taken inside the write lock, never
     * around it.
     */
    private final Object interestLock = new Object();
    private final TcpOutbound outbound = new TcpOutbound();
    /** Whether the senders' small frames form a stream, for the loop to write in batches; under the write lock. */
    private final SendStreak streak = new SendStreak();
    /** Frames this end has sent or queued; written under the write lock. */
    private volatile long framesSent;
    /** Whether what the loop reads is a one-way stream, to poll; in the loop's passes only. */
    private final ReceiveStream receiveStream = new ReceiveStream();
    private final LoopTimer pollTimer;
    /** Whether a one-way stream is polled at all: an EVENT loop in a process on more than one CPU. */
    private final boolean pollsStreams;
    private final Map<Long, MemorySegment> readTargets = new ConcurrentHashMap<>();
    // native memory owned by the GC, so nothing can touch freed memory after a close
    private final MemorySegment header = Arena.ofAuto().allocate(TcpFrame.MAX_HEADER, 8);
    private final Iovecs iovecs = new Iovecs(Arena.ofAuto(), 2);
    /** Heap payloads are copied here to be written (writev needs native addresses); under the write lock. */
    private MemorySegment heapCopy = MemorySegment.NULL;
    private boolean writeInterest;
    /** A sender waits in {@link #awaitLentPayload} (one at a time: it polls with the socket's one pollfd); under the write lock. */
    private boolean lenderWaits;
    /** Held by whoever reads the socket and handles {@link #inbound}: the loop, or a thread that receives. */
    private final ReentrantLock reading = new ReentrantLock();
    /** Whether the loop watches the socket for input; under {@link #interestLock}, as are the next two. */
    private boolean inputWatched = true;
    /** The loop polls the socket's input on a timer ({@link ReceiveStream}) instead of watching it. */
    private boolean polling;
    private boolean rewatchScheduled;
    private final Runnable rewatchAfterLinger = this::rewatchAfterLinger;
    private volatile long lastDirectRead;
    /** The socket's receive time-out now; under {@link #reading}. */
    private long receiveTimeoutMicros = WAIT_SLICE_MICROS;
    /** Set by {@link #releaseResources} before the socket may close: nothing reads, writes or watches it then. */
    private volatile boolean released;
    private final TcpInbound inbound;
    /** The thread reading the socket for its own receive, whose buffer a message may land in; under {@link #reading}. */
    private BufferWaiter directReader;

    private TcpChannel(NativeSocket socket, TransportChoice choice, int maxMessageSize, ChannelConfig config,
                       CompletionLoop loop, boolean ownsLoop) {
        super(choice, maxMessageSize, config, loop, ownsLoop);
        this.socket = socket;
        this.inbound = new TcpInbound(maxMessageSize, this);
        this.pollTimer = engine.newTimer(this::pollStream);
        this.pollsStreams = ReceiveStream.SEVERAL_CPUS && loop.mode() == CompletionMode.EVENT;
    }

    /** Takes over a connected socket (after the bootstrap exchange) and starts serving it. */
    public static TcpChannel start(NativeSocket socket, TransportChoice choice, int maxMessageSize, ChannelConfig config,
                            CompletionLoop loop, boolean ownsLoop) {
        TcpChannel channel = new TcpChannel(socket, choice, maxMessageSize, config, loop, ownsLoop);
        if (!config.tcpNoDelay()) {
            socket.setNoDelay(false); // the bootstrap ran with it on; from here on, Nagle packs
        }
        socket.allowWaitingReads();
        socket.setReceiveTimeout(WAIT_SLICE_MICROS);
        channel.engine.watch(socket.fd(), Epoll.IN, channel);
        return channel;
    }

    /** Whether the socket sends each frame at once (TCP_NODELAY), as {@link ChannelConfig#tcpNoDelay} asked. */
    boolean sendsAtOnce() {
        return socket.noDelay();
    }

    /** TCP segments the socket has sent so far: how the channel packed its frames. */
    long segmentsSent() {
        return socket.segmentsSent();
    }

    /** The socket's fd: where it is watched, for tests that ask the kernel. */
    int socketFd() {
        return socket.fd();
    }

    @Override
    public RegisteredRegion register(long size) {
        checkOpen();
        return regions.register(size);
    }

    // ---- requests ------------------------------------------------------------------------

    @Override
    protected void startSend(MemorySegment message, boolean hasImmediate, int immediate, CompletableFuture<Void> done,
                   boolean mayWait) {
        boolean lent = false;
        try {
            synchronized (writeLock) {
                checkWritable();
                int h = TcpFrame.message(header, message.byteSize(), hasImmediate, immediate);
                boolean mayLend = mayWait && done != null && message.isNative() && sendersWaitForTheSocket();
                int how = enqueue(h, message, null, mayLend);
                if (how == SENT) {
                    operations.endUntracked(done, null); // it went at once: nothing to track
                } else {
                    long id = operations.add(done); // under the lock: the mark is where this frame ends
                    outbound.markOperation(id);
                    lent = how == LENT;
                }
            }
        } catch (ChannelException e) {
            operations.endUntracked(done, e);
        }
        afterWrite();
        if (lent) {
            awaitLentPayload();
        }
    }

    @Override
    protected void startWrite(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                    long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done);
        try {
            synchronized (writeLock) {
                checkWritable();
                enqueue(TcpFrame.write(header, id, remoteAddress, remote.rkey(), local.byteSize()), local, null, false);
            }
        } catch (ChannelException e) {
            operations.fail(id, e);
        }
        afterWrite();
    }

    @Override
    protected void startRead(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                   long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done);
        readTargets.put(id, local);
        try {
            synchronized (writeLock) {
                checkWritable();
                enqueue(TcpFrame.read(header, id, remoteAddress, remote.rkey(), (int) local.byteSize()),
                        MemorySegment.NULL, null, false);
            }
        } catch (ChannelException e) {
            readTargets.remove(id);
            operations.fail(id, e);
        }
        afterWrite();
    }

    @Override
    protected void sayGoodbye() {
        synchronized (writeLock) {
            checkWritable();
            enqueue(TcpFrame.close(header), MemorySegment.NULL, socket::shutdownOutput, false);
        }
        afterWrite();
    }

    // ---- writing -------------------------------------------------------------------------

    /** A write that failed, to be reported once the write lock is released (ending the channel takes it). */
    private volatile LinuxCallException writeFailure;

    private void checkWritable() {
        if (released || !socket.isOpen() || writeFailure != null) {
            throw new ChannelException(ChannelError.PEER_LOST, "the connection is closed");
        }
    }

    /** How {@link #enqueue} got a frame out: all of it at once, or the rest queued as a copy or lent. */
    private static final int SENT = 0, QUEUED = 1, LENT = 2;

    /**
     * Under the write lock: writes {@code headerLength} bytes of {@link #header} and then
     * {@code payload} now if nothing is queued ahead, else (or what the socket does not take)
     * queues a copy for the loop. {@code written} runs once the frame is out: here when it went
     * at once, later otherwise. With {@code mayLend}, a payload the socket took only part of is
     * lent to the queue instead of copied: the caller then waits in {@link #awaitLentPayload}.
     */
    private int enqueue(int headerLength, MemorySegment payload, Runnable written, boolean mayLend) {
        long length = payload.byteSize();
        long payloadAddress = length == 0 ? 0 : nativeAddress(payload);
        framesSent++; // under the write lock: one writer
        // the loop's own sends go straight out: it cannot wait for a free slot in the send queue
        boolean counted = !loop.inLoop();
        boolean batched = counted && streak.batches(headerLength + length, inbound.reads(), System.nanoTime());
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

    /** Under the write lock: the loop writes what is queued once the socket has room. */
    private void askForWrites() {
        synchronized (interestLock) {
            if (!writeInterest) {
                writeInterest = true;
                try {
                    engine.changeEvents(socket.fd(), watchedEvents());
                } catch (LinuxCallException e) {
                    writeFailure = e;
                    throw new ChannelException(ChannelError.PEER_LOST, "the connection is closing: " + e.getMessage(), e);
                }
            }
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
     * no hop through the loop. The write lock is held only to write, so the loop can still answer
     * the peer (a response queues behind the lent bytes). Past the send time-out, or when
     * interrupted, what is left is copied and left to the loop, as for a send that did not wait.
     */
    private void awaitLentPayload() {
        long deadline = System.nanoTime() + config.sendTimeout().toNanos();
        try {
            boolean lentLeft = true;
            while (lentLeft && !released) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || Thread.currentThread().isInterrupted()) {
                    return;
                }
                socket.awaitWritable((int) Math.max(1, Math.min(WAIT_SLICE_MICROS / 1000, left / 1_000_000)));
                lentLeft = flush(lenderWritten);
            }
        } finally {
            synchronized (writeLock) {
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

    /** Reports a write failure outside the write lock. */
    private void afterWrite() {
        LinuxCallException failure = writeFailure;
        if (failure != null && endCause() == null) {
            lost(failure);
        }
    }

    /** Under {@link #interestLock}: what the loop watches the socket for now. */
    private int watchedEvents() {
        return (inputWatched && !polling ? Epoll.IN : 0) | (writeInterest ? Epoll.OUT : 0);
    }

    /**
     * Writes what is queued while the socket takes it: the loop, or a sender whose payload is
     * lent. True while lent bytes are left.
     */
    private boolean flush(WrittenFrames reusable) {
        boolean lentLeft;
        WrittenFrames done;
        synchronized (writeLock) {
            if (released || !socket.isOpen()) {
                return false;
            }
            done = reusable.claim();
            try {
                if (outbound.writeTo(socket, done)) {
                    synchronized (interestLock) {
                        if (writeInterest) {
                            writeInterest = false;
                            engine.changeEvents(socket.fd(), watchedEvents());
                        }
                    }
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

    // ---- reading -------------------------------------------------------------------------

    @Override
    public boolean carriesMessages() {
        return true;
    }

    @Override
    public void onReady(int events) {
        if ((events & (Epoll.OUT | Epoll.ERR | Epoll.HUP)) != 0) {
            flush(passWritten);
        }
        if (endCause() == null && (events & (Epoll.IN | Epoll.ERR | Epoll.HUP)) != 0 && reading.tryLock()) {
            long streamable;
            try { // not taken: a receiving thread reads, and meets what the loop was told of
                streamable = readAvailableSmallFrames();
            } finally {
                reading.unlock();
            }
            if (streamable > 0 && pollsStreams && endCause() == null
                    && receiveStream.streams(framesSent, System.nanoTime())) {
                startPolling();
            }
        }
    }

    /**
     * In a pass: the socket carries a one-way stream, so it leaves the epoll set and the loop
     * reads it on a timer at the stream's pace ({@link #pollStream}) rather than being woken by
     * each segment the sender's kernel delivers.
     */
    private void startPolling() {
        synchronized (interestLock) {
            if (!inputWatched || polling || released) {
                return;
            }
            polling = true;
            try {
                engine.changeEvents(socket.fd(), watchedEvents());
            } catch (RuntimeException e) { // the loop or the socket is going
                polling = false;
                return;
            }
        }
        pollTimer.schedule(receiveStream.pollNanos());
    }

    /**
     * A timer in a pass: reads what the stream brought since the last look, and looks again
     * when {@link ReceiveStream#nextLook} says, while it keeps coming with nothing sent from
     * here; else the socket rejoins the epoll set (what came meanwhile is reported at once). A
     * receiving thread that took the input ends the polling too: it reads from now on.
     */
    private void pollStream() {
        boolean watched;
        synchronized (interestLock) {
            if (!polling || released) {
                return;
            }
            watched = inputWatched;
        }
        long next = -1;
        if (watched && endCause() == null && reading.tryLock()) {
            long streamable;
            try {
                streamable = readAvailableSmallFrames();
            } finally {
                reading.unlock();
            }
            if (streamable >= 0 && endCause() == null) {
                next = receiveStream.nextLook(streamable, framesSent, System.nanoTime());
            }
        }
        if (next > 0) {
            pollTimer.schedule(next);
            return;
        }
        receiveStream.reset();
        synchronized (interestLock) {
            polling = false;
            if (inputWatched && !released) {
                applyWatchedEvents();
            }
        }
    }

    // ---- a receiving thread reads the socket itself ------------------------------------------

    @Override
    protected void awaitMessage(BufferWaiter waiter, long timeoutNanos) {
        if (loop.mode() != CompletionMode.BUSY_POLL && reading.tryLock()) {
            try {
                if (takeInputFromLoop()) {
                    directReader = waiter;
                    readUntil(waiter, timeoutNanos);
                    return;
                }
            } finally {
                leaveDirectRead();
            }
        }
        super.awaitMessage(waiter, timeoutNanos); // a BUSY loop spins anyway; or another thread reads
    }

    /**
     * Under {@link #reading}: the loop stops watching the socket's input, and with no write
     * waiting the socket leaves the loop's epoll set, which would otherwise cost each wake-up of
     * this reading thread the set's callback. False if the channel is going.
     */
    private boolean takeInputFromLoop() {
        synchronized (interestLock) {
            if (released || endCause() != null) {
                return false;
            }
            try { // the linger timer starts as the read ends (armLinger)
                if (inputWatched) {
                    inputWatched = false;
                    engine.changeEvents(socket.fd(), watchedEvents());
                }
                return true;
            } catch (RuntimeException e) { // the loop or the socket is going: leave the reading to the loop
                inputWatched = true;
                return false;
            }
        }
    }

    /**
     * Under {@link #reading}: reads and handles frames until the waiter has its message, the
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
            while (!waiter.getAsBoolean() && endCause() == null) {
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
                    eof();
                    return;
                }
                if (n > 0 && adaptive) {
                    spinUntil = System.nanoTime() + engine.spinNanos();
                }
            }
        } catch (LinuxCallException e) {
            lost(e);
        }
    }

    /** Bounds the next waiting read by the receive's time-out (a system call only when the bound changes). */
    private void limitWait(long leftNanos) {
        long micros = leftNanos >= WAIT_SLICE_MICROS * 1000 ? WAIT_SLICE_MICROS
                : (leftNanos + 999_999) / 1_000_000 * 1000; // whole milliseconds: a few calls, not one per read
        if (micros != receiveTimeoutMicros) {
            socket.setReceiveTimeout(micros);
            receiveTimeoutMicros = micros;
        }
    }

    /**
     * Lets go of {@link #reading}. Other receives still waiting get the loop back at once; the
     * last reader out closes the socket if the channel was released meanwhile.
     */
    private void leaveDirectRead() {
        if (directReader != null) {
            inbound.giveBack(directReader.target().memory());
            directReader = null;
        }
        lastDirectRead = System.nanoTime();
        boolean othersWait = inbox.hasWaiters();
        if (othersWait) {
            synchronized (interestLock) {
                watchInput();
            }
        }
        boolean framesLeft = inbound.holdsFrame();
        reading.unlock();
        if (!othersWait) {
            armLinger();
        }
        closeIfReleased();
        if (othersWait && framesLeft) {
            handOverBufferedFrames(); // the loop reads only what the socket reports: these are already read
        }
    }

    /** Has the loop handle the whole frames a receiving thread left in the buffer. */
    private void handOverBufferedFrames() {
        try {
            loop.execute(this::handleBufferedFrames);
        } catch (ChannelException stopped) {
            // the loop is gone, and the channel with it
        }
    }

    /** Loop thread: handles frames left in the buffer, unless a receiving thread reads (it handles them first). */
    private void handleBufferedFrames() {
        if (endCause() == null && reading.tryLock()) {
            try {
                inbound.handleBuffered();
            } finally {
                reading.unlock();
            }
        }
    }

    /**
     * After a direct read, with {@link #reading} let go: starts the linger timer unless it runs
     * (reads that follow each other keep it running). Only after the unlock: a timer that found
     * the lock held, and stopped, ran before it, so this sees what that timer left.
     */
    private void armLinger() {
        synchronized (interestLock) {
            if (inputWatched || rewatchScheduled || released) {
                return;
            }
            try {
                loop.schedule(Duration.ofNanos(DIRECT_LINGER_NANOS), rewatchAfterLinger);
                rewatchScheduled = true;
            } catch (RuntimeException e) { // the loop is going, and the channel with it
                LOG.debug("the linger timer did not start: {}", e.getMessage());
            }
        }
    }

    /**
     * Loop thread, a timer: gives the socket's input back to the loop once no receive read it for
     * a while. Once a thread has waited in its read for that long the timer stops, and that
     * thread starts it again as it leaves ({@link #armLinger}): a receive waiting on an idle
     * channel wakes the loop a couple of times, not every millisecond.
     */
    private void rewatchAfterLinger() {
        long idle = System.nanoTime() - lastDirectRead;
        synchronized (interestLock) {
            if (released) {
                return;
            }
            if (idle < DIRECT_LINGER_NANOS) { // a receive read it lately, and another may be reading now
                loop.schedule(Duration.ofNanos(Math.max(DIRECT_LINGER_NANOS - idle, 1_000_000L)), rewatchAfterLinger);
                return;
            }
            rewatchScheduled = false;
            if (reading.isLocked()) { // one thread has waited in its read since the last read ended
                return;
            }
            watchInput();
        }
        handleBufferedFrames();
    }

    /** Under {@link #interestLock}: the loop watches the socket's input again. */
    private void watchInput() {
        if (inputWatched || released) {
            return;
        }
        inputWatched = true;
        applyWatchedEvents();
    }

    /**
     * Under {@link #interestLock}: sets the socket's epoll entry to what {@link #watchedEvents}
     * says; a failure means the channel is going.
     */
    private void applyWatchedEvents() {
        try {
            engine.changeEvents(socket.fd(), watchedEvents());
        } catch (RuntimeException e) {
            LOG.debug("watching the socket again failed: {}", e.getMessage());
        }
    }

    @Override
    public void setListener(ChannelListener listener) {
        super.setListener(listener);
        synchronized (interestLock) {
            watchInput(); // a listener is served by the loop: it reads from now on
        }
        handOverBufferedFrames();
    }

    /**
     * Under {@link #reading}: {@link #readAvailable}, and how many bytes it read, or -1 when they
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
                    eof();
                    return bytes;
                }
                bytes += n;
                if (n == 0 || endCause() != null || n < asked) {
                    return bytes; // a short read emptied the socket: epoll reports what comes next
                }
            }
        } catch (LinuxCallException e) {
            lost(e);
        }
        return bytes;
    }

    // ---- what arrives (TcpInbound.Frames, under reading) ---------------------------------------

    @Override
    public void landed(MemorySegment zone, int length, boolean hasImmediate, int immediate) {
        if (!inbox.fillInPlace(directReader, length, hasImmediate, immediate)) {
            inbox.deliver(this, zone, 0, length, hasImmediate, immediate); // someone was first in line
        }
    }

    @Override
    public void corrupt(String why) {
        lost(new IllegalStateException(why));
    }

    @Override
    public boolean stopHere() {
        return endCause() != null || (directReader != null && directReader.getAsBoolean());
    }

    @Override
    public void frame(MemorySegment in, long at, int length) {
        TcpFrame.decode(in, at, length, this);
    }

    // ---- the frames' fields (TcpFrame.Handler, under reading) ----------------------------------

    @Override
    public void message(MemorySegment in, long payloadAt, int length, boolean hasImmediate, int immediate) {
        inbox.deliver(this, in, payloadAt, length, hasImmediate, immediate);
    }

    @Override
    public void writeRequest(long id, long address, int key, MemorySegment in, long payloadAt, int length) {
        serveWrite(in, id, address, key, payloadAt, length);
    }

    @Override
    public void readRequest(long id, long address, int key, int length) {
        serveRead(id, address, key, length);
    }

    @Override
    public void writeDone(long id, byte status) {
        finish(id, status);
    }

    @Override
    public void readDone(long id, byte status, MemorySegment in, long payloadAt, int length) {
        MemorySegment target = readTargets.remove(id);
        if (status == TcpFrame.STATUS_OK && target != null) {
            MemorySegment.copy(in, payloadAt, target, 0, Math.min(target.byteSize(), length));
        }
        finish(id, status);
    }

    @Override
    public void peerClosed() {
        end(new ChannelException(ChannelError.PEER_CLOSED, "the peer closed the channel"));
    }

    @Override
    public void unknownType(byte type) {
        lost(new IllegalStateException("unknown frame type " + type));
    }

    private void serveWrite(MemorySegment in, long id, long address, int key, long payloadAt, int length) {
        ChannelException refused = null;
        try {
            MemorySegment target = regions.resolve(address, key, length);
            MemorySegment.copy(in, payloadAt, target, 0, length);
        } catch (ChannelException e) {
            refused = refusal(e);
        }
        ChannelException endNow;
        synchronized (writeLock) {
            byte status = refused == null ? TcpFrame.STATUS_OK : TcpFrame.STATUS_REMOTE_ACCESS;
            endNow = respond(TcpFrame.writeDone(header, id, status), MemorySegment.NULL, refused);
        }
        afterResponse(endNow);
    }

    private void serveRead(long id, long address, int key, int length) {
        ChannelException refused = null;
        MemorySegment source = MemorySegment.NULL;
        try {
            source = regions.resolve(address, key, length);
        } catch (ChannelException e) {
            refused = refusal(e);
        }
        ChannelException endNow;
        synchronized (writeLock) {
            byte status = refused == null ? TcpFrame.STATUS_OK : TcpFrame.STATUS_REMOTE_ACCESS;
            endNow = respond(TcpFrame.readDone(header, id, status, source.byteSize()), source, refused);
        }
        afterResponse(endNow);
    }

    /**
     * After the write lock: ends the channel when a refusal is out (ending takes the lock, and
     * on a receiving thread it waits for the loop, which may need the lock first).
     */
    private void afterResponse(ChannelException endNow) {
        afterWrite();
        if (endNow != null) {
            end(endNow);
        }
    }

    /** An invalid access ends the connection here too, as it moves an RC responder QP to ERR. */
    private static ChannelException refusal(ChannelException why) {
        if (why.error() != ChannelError.REMOTE_ACCESS) {
            throw why;
        }
        return new ChannelException(ChannelError.REMOTE_ACCESS,
                "the peer made an invalid one-sided access: " + why.getMessage());
    }

    /**
     * Under the write lock: sends a response. A refusal ends the channel once it is out: returned
     * to end it after the lock when it went at once (or cannot go), else when the loop wrote it.
     */
    private ChannelException respond(int headerLength, MemorySegment payload, ChannelException refused) {
        try {
            checkWritable();
            if (enqueue(headerLength, payload, null, false) == SENT) {
                return refused;
            }
            outbound.mark(refused == null ? null : () -> end(refused));
            return null;
        } catch (ChannelException e) {
            return refused;
        }
    }

    private void finish(long id, byte status) {
        if (status == TcpFrame.STATUS_OK) {
            operations.complete(id);
            return;
        }
        ChannelException e = new ChannelException(ChannelError.REMOTE_ACCESS,
                "the peer refused the access (unknown key or outside its region)");
        operations.fail(id, e);
        end(e);
    }

    private void eof() {
        if (closing) {
            peerDone.complete(null);
            end(new ChannelException(ChannelError.CLOSED, "the channel was closed by this side"));
        } else {
            end(new ChannelException(ChannelError.PEER_LOST, "the peer went away without closing the channel"));
        }
    }

    private void lost(RuntimeException e) {
        if (closing) {
            peerDone.complete(null);
        }
        end(new ChannelException(ChannelError.PEER_LOST, "the connection broke: " + e.getMessage(), e));
    }

    /**
     * A sender whose whole frame went at once completes its operation under the write lock, right
     * after the write. Waiting for that lock before failing what is in flight keeps such a send
     * from failing: on a slow machine the peer can take the frame, answer and close (and this
     * loop read the close) before the sender runs its next line.
     */
    @Override
    protected void end(ChannelException cause) {
        synchronized (writeLock) {
            // only waits out a sender between its write and its completion
        }
        super.end(cause);
    }

    /**
     * Shuts the socket down first (a thread waiting in its read returns), then closes it unless a
     * receiving thread still reads it: that thread closes it as it leaves.
     */
    @Override
    protected void releaseResources() {
        if (socket.isOpen()) {
            socket.shutdown();
        }
        synchronized (writeLock) { // senders check under this lock before they touch the socket or its epoll entry
            synchronized (interestLock) { // and so do receiving threads and the linger timer
                if (socket.isOpen()) {
                    engine.unwatch(socket.fd());
                }
                released = true;
            }
            outbound.clear();
        }
        closeIfReleased();
        readTargets.clear(); // the regions stay: their owner closes them, and may still read them
    }

    /** Closes the released socket when nobody reads it (one of releaseResources and the last reader does). */
    private void closeIfReleased() {
        if (released && reading.tryLock()) {
            try {
                socket.close();
            } finally {
                reading.unlock();
            }
        }
    }
}
