package dev.verbs4j.guest.shm;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.channel.BufferWaiter;
import dev.verbs4j.guest.channel.ChannelBase;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.spi.FdHandler;
import dev.verbs4j.loop.spi.MemorySource;
import dev.verbs4j.unix.Epoll;
import dev.verbs4j.unix.UnixSocket;
import dev.verbs4j.verbs.RemoteRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A channel between two processes on one kernel through a shared segment ({@link ShmSegment}):
 * a ring each way ({@link RingWriter}, {@link RingReader}) of committed-length records
 * ({@link ShmRecord}). The completion loop polls the incoming ring in every pass, as it polls a
 * CQ ({@link MemorySource}); before it sleeps it sets the ring's armed flag, and a producer that
 * finds the flag set after its commit signals this side's eventfd, which sits in the loop's epoll
 * set. BUSY never sleeps and so never costs the peer a system call.
 *
 * <p>A send completes, and its credit and ring room come back, when the peer's loop has taken
 * the message ({@link SendsInFlight}): the credits bound what is in the ring, and the ring holds
 * all of it, so a send never finds it full. One-sided writes and reads are records that the
 * peer's loop serves ({@link ShmOneSided}); each moves at most {@link #maxMessageSize()} bytes.
 *
 * <p>The peer's death closes its end of the unix socket; the loop sees it and ends the channel
 * with {@link ChannelError#PEER_LOST}, after taking what the peer had committed.
 *
 * <p>One lock, the producer lock: held by whoever writes to the outgoing ring (a sender, the
 * loop answering, the close), and around releasing the segment, so no write touches it after.
 * Futures are completed and the channel is ended after it is let go.
 */
public final class ShmChannel extends ChannelBase implements MemorySource {
    /** Records one poll takes at most before it lets the pass go on. */
    private static final int BATCH = 64;
    /**
     * How long a thread waiting in {@code receive(ReceiveBuffer, Duration)} drives an EVENT or
     * ADAPTIVE loop itself (woken by the peer's signal, no hand-off) before it leaves the loop
     * to its thread and parks: a driver's sleep is capped, so driving for ever would wake the
     * loop 20 times a second on an idle channel; the loop thread's sleep is not.
     */
    private static final long RECEIVE_DRIVES_NANOS = 50_000_000L;

    private final ShmSegment segment;
    private final RingWriter out;
    private final RingReader in;
    private final ReentrantLock producer = new ReentrantLock();
    private final SendsInFlight sends;
    private final ShmOneSided oneSided = new ShmOneSided(this);
    private final FdHandler wakeHandler;
    private final FdHandler socketHandler = this::onSocket;
    /** Loop only: the incoming ring's armed flag (and the outgoing one's space-wanted flag) are set. */
    private boolean armed, spaceWanted;
    /** Loop only: the inbox keeps as many messages as it may; the ring is read again once a receive makes room. */
    private boolean heldBack;
    /** Set under the producer lock: the segment is gone. */
    private volatile boolean released;

    private ShmChannel(ShmSegment segment, TransportChoice choice, int maxMessageSize, ChannelConfig config,
                       CompletionLoop loop, boolean ownsLoop) {
        super(choice, maxMessageSize, config, loop, ownsLoop);
        this.segment = segment;
        this.out = new RingWriter(segment.outData(), segment.outControl(), segment.peerWake);
        this.in = new RingReader(segment.inData(), segment.inControl(), maxMessageSize, segment.peerWake);
        this.sends = new SendsInFlight(config.sendQueueDepth());
        this.wakeHandler = events -> segment.ownWake.drain();
        inbox.onRoomAgain(this::readAgain);
    }

    /** Loop thread: receives made room in the inbox; what waits in the ring comes in. */
    private void readAgain() {
        heldBack = false;
        poll();
    }

    /**
     * Sets the segment up over a connected unix socket whose peer the caller verified (the
     * creator makes it, the other side attaches), not yet in {@code loop}: the caller then either
     * {@link #attach}es it, once both sides know the set-up worked, or {@link #abandon}s it.
     *
     * @param peerDepth the peer's send queue depth, as it stated: the rings hold both sides' credits
     * @throws IOException when the segment cannot be made, sent or taken; the unix socket is then closed, so the
     *         peer's side of the set-up ends at once instead of waiting for its time-out
     */
    public static ShmChannel open(UnixSocket socket, boolean creator, int peerDepth, TransportChoice choice,
                                  int maxMessageSize, ChannelConfig config, CompletionLoop loop, boolean ownsLoop)
            throws IOException {
        long capacity = ShmLayout.capacity(config.sendQueueDepth(), peerDepth, maxMessageSize);
        Duration timeout = config.connectTimeout();
        ShmSegment segment;
        try {
            segment = creator ? ShmSegment.create(socket, capacity, timeout)
                    : ShmSegment.attach(socket, capacity, timeout);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
        return new ShmChannel(segment, choice, maxMessageSize, config, loop, ownsLoop);
    }

    /** Starts serving the segment in the loop: its ring, this side's eventfd and the unix socket join the loop. */
    public void attach() {
        engine.watch(segment.ownWake.fd(), Epoll.IN, wakeHandler);
        engine.watch(segment.socket.fd(), Epoll.IN, socketHandler);
        engine.addMemorySource(this);
    }

    /** Gives the segment, its fds and the unix socket back before {@link #attach}: the loop never saw them. */
    public void abandon() {
        released = true;
        segment.close();
    }

    /** The mapped segment, for tests that play a hostile peer. */
    MemorySegment segmentMemory() {
        return segment.memory;
    }

    boolean isCreator() {
        return segment.creator;
    }

    @Override
    protected void awaitMessage(BufferWaiter waiter, long timeoutNanos) {
        super.awaitMessage(waiter, engine.spinsAlways() ? timeoutNanos : Math.min(timeoutNanos, RECEIVE_DRIVES_NANOS));
    }

    @Override
    public RegisteredRegion register(long size) {
        checkOpen();
        return oneSided.book.register(size);
    }

    // ---- requests ----------------------------------------------------------------------------

    @Override
    protected void startSend(MemorySegment message, boolean hasImmediate, int immediate, CompletableFuture<Void> done,
                             boolean mayWait) {
        long id;
        ChannelException failure;
        producer.lock();
        try {
            id = beginRequest(done);
            failure = id == 0 ? ended() : writeRecord(ShmRecord.MESSAGE, (int) message.byteSize(), immediate,
                    hasImmediate ? ShmRecord.HAS_IMMEDIATE : 0, message, 0, id, true);
        } finally {
            producer.unlock();
        }
        afterRequest(id, done, failure);
    }

    /** Under the producer lock: registers the request, or 0 when the segment is gone. */
    private long beginRequest(CompletableFuture<Void> done) {
        return released ? 0 : operations.add(done);
    }

    private static ChannelException ended() {
        return new ChannelException(ChannelError.CLOSED, "the channel has ended");
    }

    @Override
    protected void startWrite(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                              long remoteAddress, CompletableFuture<Void> done) {
        startOneSided(ShmRecord.WRITE, local, remote, remoteAddress, done);
    }

    @Override
    protected void startRead(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                             long remoteAddress, CompletableFuture<Void> done) {
        startOneSided(ShmRecord.READ, local, remote, remoteAddress, done);
    }

    private void startOneSided(int type, MemorySegment local, RemoteRegion remote, long remoteAddress,
                               CompletableFuture<Void> done) {
        if (local.byteSize() > maxMessageSize) {
            operations.endUntracked(done, new ChannelException(ChannelError.LOCAL_LENGTH, "a one-sided "
                    + (type == ShmRecord.WRITE ? "write" : "read") + " of " + local.byteSize()
                    + " bytes: on shm each moves at most the channel's maximum message size, " + maxMessageSize));
            return;
        }
        long id = 0;
        ChannelException failure;
        producer.lock();
        try {
            id = beginRequest(done);
            failure = id == 0 ? ended() : writeRequest(type, id, local, remote.rkey(), remoteAddress);
        } finally {
            producer.unlock();
        }
        if (failure != null && type == ShmRecord.READ) {
            oneSided.book.takeRead(id);
        }
        afterRequest(id, done, failure);
    }

    /** Under the producer lock: a WRITE (with its bytes) or a READ of {@code local}'s length; the failure, or null. */
    private ChannelException writeRequest(int type, long id, MemorySegment local, int key, long remoteAddress) {
        if (type == ShmRecord.READ) {
            oneSided.book.expectRead(id, local);
        }
        long payload = type == ShmRecord.WRITE ? local.byteSize() : 0;
        try {
            long at = out.claim(ShmRecord.REQUEST_FIELDS + payload);
            if (at < 0) {
                return ringFull();
            }
            MemorySegment ring = out.data();
            long body = at + ShmRecord.HEADER;
            ring.set(ValueLayout.JAVA_LONG, body + ShmRecord.ID, id);
            ring.set(ValueLayout.JAVA_LONG, body + ShmRecord.ADDRESS, remoteAddress);
            ring.set(ValueLayout.JAVA_INT, body + ShmRecord.KEY, key);
            ring.set(ValueLayout.JAVA_INT, body + ShmRecord.READ_LENGTH, (int) local.byteSize());
            if (payload > 0) {
                MemorySegment.copy(local, 0, ring, body + ShmRecord.REQUEST_FIELDS, payload);
            }
            out.commit(at, (int) (ShmRecord.REQUEST_FIELDS + payload), type, 0, 0);
            out.wakeConsumerIfArmed();
            return null;
        } catch (ChannelException e) {
            return e;
        }
    }

    /**
     * Writes one record under the producer lock: a message (with {@code id}, tracked until the
     * peer takes it) or an answer; returns the failure, or null.
     */
    private ChannelException writeRecord(int type, int payloadLength, int immediate, int flags, MemorySegment payload,
                                         long fieldsLength, long id, boolean tracked) {
        try {
            long at = out.claim(fieldsLength + payloadLength);
            if (at < 0) {
                return ringFull();
            }
            if (payloadLength > 0) {
                MemorySegment.copy(payload, 0, out.data(), at + ShmRecord.HEADER + fieldsLength, payloadLength);
            }
            if (fieldsLength > 0) {
                MemorySegment ring = out.data();
                ring.set(ValueLayout.JAVA_LONG, at + ShmRecord.HEADER + ShmRecord.ID, id);
                ring.set(ValueLayout.JAVA_INT, at + ShmRecord.HEADER + ShmRecord.STATUS, immediate);
                ring.set(ValueLayout.JAVA_INT, at + ShmRecord.HEADER + ShmRecord.STATUS + 4, 0);
            }
            long end = out.commit(at, (int) (fieldsLength + payloadLength), type, fieldsLength > 0 ? 0 : immediate, flags);
            if (tracked) {
                sends.add(id, end);
            }
            out.wakeConsumerIfArmed();
            return null;
        } catch (ChannelException e) {
            return e;
        }
    }

    private static ChannelException ringFull() {
        return new ChannelException(ChannelError.TRANSPORT, "no room in the ring for a request within the credits: "
                + "the peer has more one-sided requests in flight than its queue depth");
    }

    /** After the producer lock: a failed request fails its future, and a ring failure ends the channel. */
    private void afterRequest(long id, CompletableFuture<Void> done, ChannelException failure) {
        if (failure == null) {
            if (!loop.inLoop()) {
                engine.requestPosted();
            }
            return;
        }
        if (id == 0) {
            operations.endUntracked(done, failure);
            return;
        }
        operations.fail(id, failure);
        if (failure.error() != ChannelError.CLOSED) {
            end(failure);
        }
    }

    /** The loop answers the peer's one-sided request {@code id}: WRITE_DONE, or READ_DONE with {@code data}. */
    void answer(int type, long id, boolean ok, MemorySegment data) {
        ChannelException failure = null;
        producer.lock();
        try {
            if (!released) {
                int payload = ok ? (int) data.byteSize() : 0;
                failure = writeRecord(type, payload, ok ? ShmRecord.STATUS_OK : ShmRecord.STATUS_REFUSED, 0, data,
                        ShmRecord.ANSWER_FIELDS, id, false);
            }
        } finally {
            producer.unlock();
        }
        if (failure != null) {
            end(failure);
        }
    }

    void completeOperation(long id) {
        operations.complete(id);
    }

    void failOperation(long id, ChannelException e) {
        operations.fail(id, e);
    }

    void endWith(ChannelException cause) {
        end(cause);
    }

    @Override
    protected void sayGoodbye() {
        producer.lock();
        try {
            if (!released && writeRecord(ShmRecord.GOODBYE, 0, 0, 0, MemorySegment.NULL, 0, 0, false) != null) {
                segment.socket.shutdown(); // no room: the socket's end tells the peer instead
            }
        } finally {
            producer.unlock();
        }
    }

    // ---- the loop ----------------------------------------------------------------------------

    @Override
    public int poll() {
        return poll(true);
    }

    /**
     * Takes the peer's records; with {@code holdBack}, none after a message that filled the
     * inbox (they wait in the ring, and the peer's sends for ring space) until a receive makes room.
     */
    private int poll(boolean holdBack) {
        if (released) {
            return 0;
        }
        if (heldBack && holdBack) {
            return completeSends();
        }
        int records = 0, work = 0;
        try {
            while (records < BATCH) {
                int type = in.next();
                if (type == RingReader.NONE) {
                    break;
                }
                records++;
                // A peer fast enough keeps this batch going while answers flow; the credits of
                // the sends it has taken come back now, so a listener answering with offer finds one.
                work += completeSends();
                if (endCause() != null || !handle(type)) {
                    return records + work; // the channel ended: the segment may be gone
                }
                in.advance();
                in.publish(); // at once, not after the batch: the peer's credit for this record comes back
                if (heldBack && holdBack) {
                    break;
                }
            }
        } catch (ChannelException e) {
            end(e);
            return records + work + 1;
        }
        if (records > 0 && armed) {
            disarm();
        }
        return records + work + completeSends();
    }

    /** One record of the peer's; false when it ended the channel. */
    private boolean handle(int type) {
        MemorySegment ring = in.data();
        switch (type) {
            case ShmRecord.MESSAGE -> heldBack = !inbox.deliver(this, ring, in.bodyAt(), in.bodyLength(),
                    in.hasImmediate(), in.immediate());
            case ShmRecord.WRITE -> oneSided.serveWrite(ring, in.bodyAt(), in.bodyLength());
            case ShmRecord.READ -> oneSided.serveRead(ring, in.bodyAt(), maxMessageSize);
            case ShmRecord.WRITE_DONE, ShmRecord.READ_DONE -> oneSided.answered(ring, in.bodyAt(), in.bodyLength());
            case ShmRecord.GOODBYE -> peerSaidGoodbye();
            default -> end(new ChannelException(ChannelError.TRANSPORT, "the peer's ring holds record type " + type));
        }
        return endCause() == null;
    }

    /**
     * The peer closes after everything it sent. What this side wrote before is in the peer's ring,
     * taken or not: those sends complete, as on RDMA, where the peer's adapter acknowledges what
     * reached its receive queue whether its application took it or not. (The peer's application
     * may close as soon as it has a message, before its loop published how far it read.)
     */
    private void peerSaidGoodbye() {
        completeSendsUpTo(Long.MAX_VALUE);
        if (closing) {
            peerDone.complete(null);
            end(new ChannelException(ChannelError.CLOSED, "the channel was closed by this side"));
        } else {
            end(new ChannelException(ChannelError.PEER_CLOSED, "the peer closed the channel"));
        }
    }

    /** Sends the peer has taken: their credits come back. */
    private int completeSends() {
        return completeSendsUpTo(-1);
    }

    /** Sends that end at or before {@code head} (-1: the peer's published position) complete. */
    private int completeSendsUpTo(long head) {
        if (sends.isEmpty()) {
            return 0;
        }
        int n;
        ChannelException failure = null;
        producer.lock();
        try {
            if (released) {
                return 0;
            }
            n = sends.takeUpTo(head < 0 ? out.readHead() : head);
        } catch (ChannelException e) {
            failure = e;
            n = 0;
        } finally {
            producer.unlock();
        }
        if (failure != null) {
            end(failure);
            return 1;
        }
        long[] taken = sends.taken();
        for (int i = 0; i < n; i++) {
            operations.complete(taken[i]);
        }
        return n;
    }

    @Override
    public void arm() {
        if (released) {
            return;
        }
        armed = true;
        in.arm(true);
        // Asked at every arm, not only the first: the peer clears the flag when it wakes us, and a
        // flag left set here with none in the segment would stop the loop's short sleeps for sends
        // nobody awaits (hasUnwatchedOwnRequests) while no wake-up comes either.
        boolean want = !sends.isEmpty() && (closing || credits.hasWaiters() || operations.anyAwaited());
        if (want || spaceWanted) {
            spaceWanted = want;
            out.wantSpace(want);
        }
        VarHandle.fullFence(); // the flags are stored before the loop's last look at the rings, as the peer reads them after its stores
    }

    private void disarm() {
        armed = false;
        in.arm(false);
        if (spaceWanted) {
            spaceWanted = false;
            out.wantSpace(false);
        }
    }

    @Override
    public boolean hasUnwatchedOwnRequests() {
        return !sends.isEmpty() && !spaceWanted;
    }

    /** The unix socket: readable only when the peer is gone (or writes what it should not, which is dropped). */
    private void onSocket(int events) {
        if (released || segment.socket.discard() >= 0 && (events & (Epoll.HUP | Epoll.ERR)) == 0) {
            return;
        }
        poll(false); // what the peer committed before it went is still delivered: a gone peer waits for nothing
        if (endCause() != null) {
            return;
        }
        if (closing) {
            peerDone.complete(null);
            end(new ChannelException(ChannelError.CLOSED, "the channel was closed by this side"));
        } else {
            end(new ChannelException(ChannelError.PEER_LOST, "the peer's process is gone (its unix socket closed)"));
        }
    }

    /** Out of the loop, then (under the producer lock, so no writer is inside) the segment and its fds go. */
    @Override
    protected void releaseResources() {
        try {
            engine.removeMemorySource(this);
            engine.unwatch(segment.ownWake.fd());
            engine.unwatch(segment.socket.fd());
        } catch (RuntimeException e) {
            // the loop is gone, and its epoll set with it
        }
        producer.lock();
        try {
            released = true;
        } finally {
            producer.unlock();
        }
        segment.close();
        oneSided.book.clear();
    }
}
