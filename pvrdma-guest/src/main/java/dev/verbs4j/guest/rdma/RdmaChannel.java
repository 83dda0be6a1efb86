package dev.verbs4j.guest.rdma;

import dev.verbs4j.verbs.QueuePairEndpoint;
import dev.verbs4j.guest.channel.ChannelBase;
import dev.verbs4j.guest.channel.ChannelOperations;
import dev.verbs4j.loop.spi.CompletionSource;
import dev.verbs4j.loop.spi.FdHandler;
import dev.verbs4j.loop.spi.LoopDevice;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.RegisteredRegion;
import dev.verbs4j.verbs.RemoteRegion;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.AddressVector;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.DeviceAttributes;
import dev.verbs4j.verbs.GidChooser;
import dev.verbs4j.verbs.GidEntry;
import dev.verbs4j.verbs.InitAttributes;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PathMtu;
import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpCapabilities;
import dev.verbs4j.verbs.QpInitAttributes;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.RtrAttributes;
import dev.verbs4j.verbs.RtsAttributes;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.SendOpcode;
import dev.verbs4j.verbs.WcOpcode;
import dev.verbs4j.verbs.WcStatus;
import dev.verbs4j.verbs.WorkCompletions;
import dev.verbs4j.unix.Epoll;
import dev.verbs4j.unix.NativeSocket;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A channel over an RC queue pair. Messages are SENDs into receive buffers posted ahead (one
 * registered slot of the agreed maximum size each, re-posted as soon as the message is copied
 * out); sends are copied into registered send slots, one per send-queue entry, which is what
 * bounds them (back-pressure). One-sided operations are RDMA WRITE and READ straight from and
 * into the caller's {@link RegisteredRegion}. All completions come through one CQ polled by the
 * {@link CompletionLoop}.
 *
 * <p>The bootstrap socket stays open beside the QP: an orderly close is said there (after the
 * last send has completed), and a peer that dies is seen there at once, even when no operation
 * is in flight to time out.
 */
public final class RdmaChannel extends ChannelBase implements CompletionSource, FdHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RdmaChannel.class);
    private static final long RECEIVE_TAG = 1L << 62;
    private static final byte CONTROL_CLOSE = 1;
    /** Immediate data of the connect probe, never seen by the application. */
    private static final int PROBE = 0x7634_6A70;
    private static final Duration PEER_LOST_GRACE = Duration.ofSeconds(1);
    /** How long a flush with no failure before it waits for the one behind it. */
    private static final Duration FLUSH_GRACE = Duration.ofMillis(100);
    /** How often the probe looks whether the peer hung up the bootstrap connection meanwhile. */
    private static final long HANG_UP_LOOK_NANOS = 1_000_000;

    private final NativeSocket control;
    /** One control message in or out: GC-owned native bytes for the socket calls. */
    private final MemorySegment controlBytes = Arena.ofAuto().allocate(16);
    private final RdmaResources verbs;
    private final FailedCompletion failures;
    private final LoopDevice device;
    /** Watches the port while the loop runs the channel. */
    private volatile LinkWatch linkWatch;
    private final int receiveDepth;
    /** A flush came before any failure of ours: its cause is being looked for. */
    private boolean flushSeen;
    private boolean controlWatched;
    /** False while connecting: failures are reported to the connector, which falls back to TCP. */
    private volatile boolean attached;
    private volatile ChannelException setupFailure;
    private boolean probing;
    private boolean probeReceived;
    /** How the peer's probe arrived here: what its sends carry on this path. */
    private ProbeArrival peerProbe = ProbeArrival.INTACT;
    /** The peer's sends arrive unsolicited (their flags lost): a sleeping loop must wake for every completion. */
    private volatile boolean peerSendsUnsolicited;
    private volatile TransportChoice limitedChoice;
    /**
     * Receive slots not posted again while the inbox keeps as many messages as it may (loop
     * thread): the peer's sends then wait (RNR, retried without end) and its credits run out,
     * until a receive makes room.
     */
    private final int[] heldSlots;
    private int heldCount;

    private RdmaChannel(NativeSocket control, TransportChoice choice, LoopDevice device, RdmaResources verbs,
                        int maxMessageSize, ChannelConfig config, CompletionLoop loop, boolean ownsLoop) {
        super(choice, maxMessageSize, config, loop, ownsLoop);
        this.device = device;
        this.control = control;
        this.verbs = verbs;
        this.failures = new FailedCompletion(verbs.context, verbs.port);
        this.receiveDepth = config.receiveDepth();
        this.heldSlots = new int[receiveDepth];
        for (int i = 0; i < receiveDepth; i++) {
            postReceive(i);
        }
        inbox.onRoomAgain(this::postHeldSlots);
    }

    /** Loop thread: receives made room in the inbox; the slots held back take messages again. */
    private void postHeldSlots() {
        while (heldCount > 0 && endCause() == null) {
            try {
                postReceive(heldSlots[--heldCount]);
            } catch (RuntimeException e) {
                fail(new ChannelException(ChannelError.TRANSPORT, "re-posting a receive failed: " + e.getMessage(), e));
                return;
            }
        }
    }

    /**
     * Creates the device resources on {@code choice}'s device and GID, and posts the receives;
     * undoes what it made when it fails.
     */
    public static RdmaChannel create(NativeSocket control, TransportChoice choice, int port, int maxMessageSize,
                                     ChannelConfig config, CompletionLoop loop, boolean ownsLoop) {
        LoopDevice device = loop.engine().device(choice.device());
        RdmaResources verbs = RdmaResources.create(device, port, choice.gidIndex(), maxMessageSize,
                config.sendQueueDepth(), config.receiveDepth(), AckTimeout.code(config.peerLossTimeout()));
        try {
            return new RdmaChannel(control, choice, device, verbs, maxMessageSize, config, loop, ownsLoop);
        } catch (RuntimeException e) {
            verbs.release();
            throw e;
        }
    }

    /** What the peer needs to connect its queue pair to this side's. */
    public QueuePairEndpoint endpoint() {
        return verbs.endpoint();
    }

    /** RTR and RTS towards the peer. */
    public void connectTo(QueuePairEndpoint peer) {
        verbs.connect(peer);
    }

    /**
     * Proves the connection carries traffic both ways before the application may use it: one
     * empty SEND with immediate data each way, completed within {@code timeout}. Returns null or
     * why it failed; how the peer's probe arrived is then {@link #peerProbe()}. A peer that hangs
     * up the bootstrap connection meanwhile (its process died) ends the wait at once: its probe
     * will not come.
     */
    public String probe(Duration timeout) {
        probing = true;
        CompletableFuture<Void> sent = send(MemorySegment.NULL, PROBE);
        long deadline = System.nanoTime() + timeout.toNanos();
        long nextLook = System.nanoTime() + HANG_UP_LOOK_NANOS;
        while (!(sent.isDone() && probeReceived) && setupFailure == null) {
            long now = System.nanoTime();
            if (verbs.cq.poll(verbs.setupBatch) > 0) {
                deliver(verbs.setupBatch);
            } else if (now > deadline) {
                return "no RDMA traffic within " + timeout + " (wrong GID, unreachable peer or filtered RoCE)";
            } else if (now - nextLook >= 0) {
                nextLook = now + HANG_UP_LOOK_NANOS;
                if (control.peerHungUp()) {
                    return "the peer hung up the bootstrap connection before its RDMA probe came";
                }
            } else {
                Thread.onSpinWait();
            }
        }
        probing = false;
        if (setupFailure != null) {
            return setupFailure.getMessage();
        }
        return sent.isCompletedExceptionally() ? "the probe send failed" : null;
    }

    /** How the peer's probe arrived: whether its immediate data came through (after {@link #probe}). */
    public ProbeArrival peerProbe() {
        return peerProbe;
    }

    /** RDMA READs this side may have outstanding and serve at once: 0 where the device takes none. */
    public int readsInFlight() {
        return verbs.readsInFlight();
    }

    /**
     * Keeps to what the path carries, from how each side's probe arrived at the other ({@code mine}:
     * this side's, as the peer saw it) and the READ depth of each side: an operation that would
     * arrive altered, or that a side cannot serve, is refused with the reason; and a peer whose
     * sends lose their flags wakes this side's loop for every completion, not only solicited ones.
     */
    public void limitTo(ProbeArrival mine, int peerReadsInFlight) {
        peerSendsUnsolicited = peerProbe != ProbeArrival.INTACT;
        String oneSided = mine.oneSidedRefusal();
        String noReadDevice = readsInFlight() == 0 ? choice.device() + " takes no RDMA READ (max_qp_rd_atom 0):"
                        + " exchange the data as messages, or have the peer write it"
                : peerReadsInFlight == 0 ? "the peer's device takes no RDMA READ (max_qp_rd_atom 0): exchange the data"
                        + " as messages, or write it to the peer"
                : null;
        refuse(mine.immediatesRefusal(), oneSided, oneSided != null ? oneSided : noReadDevice);
        String limits = mine.limits();
        if (oneSided == null && noReadDevice != null) { // a real device without READ
            limits = (limits == null ? "" : limits + "; ") + "no RDMA READ (a device allows none)";
        }
        if (limits != null) {
            limitedChoice = TransportChoice.rdma(choice.reason() + "; " + limits, choice.device(), choice.gidIndex(),
                    choice.gidType());
            LOG.warn("{} channel: {}", choice.device(), limits);
        }
    }

    @Override
    public TransportChoice transport() {
        TransportChoice limited = limitedChoice;
        return limited != null ? limited : choice;
    }

    /** Hands the channel to its completion loop: from here on the loop polls and ends it. */
    public void attach() {
        attached = true;
        engine.addSource(this);
        engine.watch(control.fd(), Epoll.IN, this);
        controlWatched = true;
        linkWatch = new LinkWatch(device, verbs.port, config.peerLossTimeout(), loop, failures, lost -> {
            if (endCause() == null) {
                end(lost);
            }
        });
    }

    private void stopWatchingTheLink() {
        if (linkWatch != null) {
            linkWatch.close();
            linkWatch = null;
        }
    }

    /**
     * Gives the device resources back after a failed connect (the loop lets go of the CQ first if
     * {@link #attach} got that far); the socket and the loop stay, for TCP or for their owner to close.
     */
    public void abandon() {
        stopWatchingTheLink();
        if (attached) {
            attached = false;
            try {
                if (controlWatched) {
                    controlWatched = false;
                    engine.unwatch(control.fd());
                }
                engine.removeSource(this);
            } catch (RuntimeException e) {
                LOG.debug("removing the abandoned channel from its loop failed: {}", e.getMessage());
            }
        }
        verbs.release();
    }

    @Override
    public RegisteredRegion register(long size) {
        checkOpen();
        return verbs.register(size);
    }

    // ---- posting -------------------------------------------------------------------------

    @Override
    protected void startSend(MemorySegment message, boolean hasImmediate, int immediate, CompletableFuture<Void> done,
                   boolean mayWait) { // the message is copied to its slot's buffer at once: nothing to wait for
        long id = operations.add(done);
        int slot = ChannelOperations.slot(id); // the operation's slot is its send buffer too
        int length = (int) message.byteSize();
        long offset = (long) slot * maxMessageSize;
        if (length > 0) {
            MemorySegment.copy(message, 0, verbs.sendBuffers.memory(), offset, length);
        }
        postRequest(id, hasImmediate ? SendOpcode.SEND_WITH_IMM : SendOpcode.SEND, verbs.sendBuffers, offset, length,
                immediate, 0, 0);
    }

    @Override
    protected void startWrite(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                    long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done);
        postRequest(id, SendOpcode.RDMA_WRITE, mine(region, id), localOffset, (int) local.byteSize(), 0,
                remoteAddress, remote.rkey());
    }

    @Override
    protected void startRead(MemorySegment local, RegisteredRegion region, long localOffset, RemoteRegion remote,
                   long remoteAddress, CompletableFuture<Void> done) {
        long id = operations.add(done);
        postRequest(id, SendOpcode.RDMA_READ, mine(region, id), localOffset, (int) local.byteSize(), 0,
                remoteAddress, remote.rkey());
    }

    private MemoryRegion mine(RegisteredRegion region, long id) {
        if (region instanceof RdmaChannelRegion r && verbs.owns(r)) {
            return r.memoryRegion();
        }
        operations.fail(id, new ChannelException(ChannelError.LOCAL_LENGTH,
                "the local region was not registered with this channel (or is closed)"));
        return null;
    }

    private void postRequest(long id, SendOpcode opcode, MemoryRegion local, long offset, int length, int immediate,
                             long remoteAddress, int remoteKey) {
        if (local == null) {
            return; // already failed
        }
        try {
            PreparedSend post = verbs.post();
            synchronized (post) {
                int flags = opcode.isRemoteAccess() ? SendFlag.SIGNALED.bit()
                        : SendFlag.SIGNALED.bit() | SendFlag.SOLICITED.bit(); // wakes a peer armed for solicited only
                post.opcode(0, opcode).flags(0, flags).wrId(0, id)
                        .sge(0, 0, local.address() + offset, length, local.lkey());
                if (opcode.hasImmediate()) {
                    post.immediate(0, immediate);
                }
                if (opcode.isRemoteAccess()) {
                    post.remote(0, remoteAddress, remoteKey);
                }
                post.post();
            }
        } catch (RuntimeException e) {
            operations.fail(id, new ChannelException(ChannelError.TRANSPORT, "posting failed: " + e.getMessage(), e));
            return;
        }
        if (attached) {
            engine.requestPosted();
        }
    }

    private void postReceive(int slot) {
        verbs.receive.wrId(0, RECEIVE_TAG | slot).sge(0, 0, verbs.receiveBuffers, (long) slot * maxMessageSize, maxMessageSize);
        verbs.receive.post();
    }

    // ---- completions (loop thread, or the connector while probing) -----------------------

    @Override
    public CompletionQueue queue() {
        return verbs.cq;
    }

    /** Messages go out solicited, so the peer's loop may sleep through everything else (unless they arrive unsolicited). */
    @Override
    public boolean awaitsOwnCompletions() {
        return peerSendsUnsolicited || credits.hasWaiters() || operations.anyAwaited();
    }

    @Override
    public boolean hasOwnInFlight() {
        return !operations.isEmpty();
    }

    @Override
    public void deliver(WorkCompletions batch) {
        for (int i = 0; i < batch.count(); i++) {
            long wrId = batch.wrId(i);
            if (!batch.isSuccess(i)) {
                failed(wrId, batch.statusEnum(i), batch.vendorError(i));
                continue;
            }
            if ((wrId & RECEIVE_TAG) == 0) {
                operations.complete(wrId);
                continue;
            }
            int slot = (int) (wrId & ~RECEIVE_TAG);
            int length = batch.byteLength(i);
            boolean hasImmediate = batch.opcodeEnum(i) == WcOpcode.RECV && batch.hasImmediate(i);
            int immediate = hasImmediate ? batch.immediateData(i) : 0;
            boolean room = true;
            if (probing && length == 0) { // nothing else arrives before both sides have probed
                probeReceived = true;
                peerProbe = !hasImmediate ? ProbeArrival.WITHOUT_IMMEDIATE
                        : immediate == PROBE ? ProbeArrival.INTACT : ProbeArrival.IMMEDIATE_ALTERED;
            } else {
                // read in place (or copied for a receive): the slot is posted again only after this
                room = inbox.deliver(this, verbs.receiveBuffers.memory(), (long) slot * maxMessageSize, length,
                        hasImmediate, immediate);
            }
            if (endCause() != null) {
                return; // ended from the delivery: its resources are gone
            }
            if (!room) {
                heldSlots[heldCount++] = slot; // back-pressure: posted again once a receive makes room
                continue;
            }
            try {
                postReceive(slot);
            } catch (RuntimeException e) {
                fail(new ChannelException(ChannelError.TRANSPORT, "re-posting a receive failed: " + e.getMessage(), e));
                return;
            }
        }
    }

    private void failed(long wrId, WcStatus status, int vendorError) {
        if (status == WcStatus.WR_FLUSH_ERR) {
            flushed(wrId);
            return;
        }
        ChannelException cause = failures.cause(status, vendorError);
        if ((wrId & RECEIVE_TAG) == 0) {
            operations.fail(wrId, cause);
        }
        fail(cause);
    }

    /**
     * A flushed request. After a failure of ours the channel has ended with it already; a flush
     * with none before it waits a moment for the request that failed, which completes behind the
     * flushed receives, and then ends with what the queue pair and the port say. The flushed
     * operation fails with the channel's end.
     */
    private void flushed(long wrId) {
        if (endCause() != null || flushSeen) {
            return;
        }
        flushSeen = true;
        if (!attached) {
            fail(failures.flushed());
            return;
        }
        loop.schedule(FLUSH_GRACE, () -> {
            if (endCause() == null) {
                end(failures.flushed());
            }
        });
    }

    private void fail(ChannelException cause) {
        if (attached) {
            end(cause);
        } else if (setupFailure == null) {
            setupFailure = cause;
        }
    }

    // ---- the control socket --------------------------------------------------------------

    @Override
    protected void sayGoodbye() {
        try {
            controlBytes.set(ValueLayout.JAVA_BYTE, 0, CONTROL_CLOSE);
            control.write(controlBytes.address(), 1); // an idle control socket always has room for one byte
            control.shutdownOutput();
        } catch (RuntimeException e) {
            LOG.debug("sending the close failed: {}", e.getMessage());
        }
    }

    @Override
    public void onReady(int events) {
        onControl();
    }

    private void onControl() {
        long n;
        try {
            n = control.read(controlBytes.address(), controlBytes.byteSize());
        } catch (RuntimeException e) {
            end(new ChannelException(ChannelError.PEER_LOST, "the control connection broke: " + e.getMessage(), e));
            return;
        }
        if (n > 0 && controlBytes.get(ValueLayout.JAVA_BYTE, 0) == CONTROL_CLOSE) {
            drainNow(); // the peer's last messages completed before it said goodbye: deliver them first
            end(new ChannelException(ChannelError.PEER_CLOSED, "the peer closed the channel"));
        } else if (n < 0) {
            if (closing) {
                peerDone.complete(null);
                end(new ChannelException(ChannelError.CLOSED, "the channel was closed by this side"));
            } else {
                drainNow();
                lostAfterGrace();
            }
        }
    }

    /**
     * The peer's socket closed without a goodbye. Its QP may have gone to ERR because of one of
     * our requests (a bad key): that request's own error completion is the better report, and
     * may still be on the wire, so operations in flight get a moment to complete first.
     */
    private void lostAfterGrace() {
        ChannelException lost = new ChannelException(ChannelError.PEER_LOST,
                "the peer went away without closing the channel");
        if (operations.isEmpty()) {
            end(lost);
            return;
        }
        if (controlWatched) {
            controlWatched = false;
            engine.unwatch(control.fd()); // EOF stays readable: stop epoll reporting it
        }
        loop.schedule(PEER_LOST_GRACE, () -> end(lost));
    }

    private void drainNow() {
        try {
            while (verbs.cq.poll(verbs.setupBatch) > 0) {
                deliver(verbs.setupBatch);
            }
        } catch (RuntimeException e) {
            LOG.debug("draining the CQ on close failed: {}", e.getMessage());
        }
    }

    // ---- teardown --------------------------------------------------------------------------

    @Override
    protected void releaseResources() {
        stopWatchingTheLink();
        if (controlWatched) {
            controlWatched = false;
            engine.unwatch(control.fd());
        }
        closeQuietly(control);
        if (attached) {
            engine.removeSource(this);
        }
        verbs.release();
    }

    private static void closeQuietly(AutoCloseable c) {
        RdmaResources.closeQuietly(c);
    }
}
