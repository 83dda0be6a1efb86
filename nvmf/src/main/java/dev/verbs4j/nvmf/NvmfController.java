package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.connect.QueueConnector;
import dev.verbs4j.nvmf.controller.AdminChannel;
import dev.verbs4j.nvmf.controller.ControllerRegisters;
import dev.verbs4j.nvmf.controller.IoQueue;
import dev.verbs4j.nvmf.controller.KeepAliveTimer;
import dev.verbs4j.nvmf.queue.NvmfQueue;
import dev.verbs4j.nvmf.types.ConnectRejectedException;
import dev.verbs4j.nvmf.types.ControllerIdentity;
import dev.verbs4j.nvmf.types.DiscoveryEntry;
import dev.verbs4j.nvmf.types.HostNotAllowedException;
import dev.verbs4j.nvmf.types.InvalidNamespaceException;
import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.LbaOutOfRangeException;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.nvmf.types.NvmeStatus;
import dev.verbs4j.nvmf.types.NvmeStatusException;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTimeoutException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.nvmf.wire.DiscoveryLog;
import dev.verbs4j.nvmf.wire.Fabrics;
import dev.verbs4j.nvmf.wire.IdentifyData;
import dev.verbs4j.nvmf.wire.Opcodes;
import dev.verbs4j.nvmf.wire.Properties;
import dev.verbs4j.nvmf.wire.Sgl;
import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CmEventChannel;
import dev.verbs4j.verbs.CmId;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.ProtectionDomain;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A connected NVMe-oF controller over RDMA: an admin queue and N I/O queues, each its own QP,
 * enabled and identified, kept alive on a timer. Block I/O goes to and from {@link IoBuffer}s:
 * synchronously ({@link #read}, {@link #write}, {@link #flush}, {@link #writeZeroes}: thread-safe,
 * split at MDTS) or asynchronously, driven by {@link #poll()} or by the controller's progress thread
 * ({@link NvmfConnectOptions#withProgressThread}): with a callback
 * ({@link #submitRead(int, int, long, int, IoBuffer, long, IoCallback, long)}, allocation-free),
 * with a reusable future ({@link #submitRead(IoRequest, int, long, int, IoBuffer, long)} and an
 * {@link IoRequest}, allocation-free), or with a new future per I/O ({@link #readAsync}/{@link #writeAsync}).
 *
 * <pre>{@code
 * try (NvmfController c = NvmfController.connect(NvmfConnectOptions.rdma("10.77.0.1", 4420, nqn));
 *      IoBuffer buf = c.allocateBuffer(4096)) {
 *     c.read(1, 0, 4096 / c.namespace(1).blockSize(), buf, 0);
 * }
 * }</pre>
 *
 * <p>Ownership: the caller owns the controller and closes it; closing it disconnects every queue
 * and closes the {@link IoBuffer}s still open. Thread-safety: every method may be called from any
 * thread; synchronous I/O picks an I/O queue by the calling thread and holds that queue's lock
 * while its command is in flight. A transport failure (keep-alive lost, QP in error) breaks the
 * controller: {@link #failure()} says why, and every later command throws it.
 */
public final class NvmfController implements AutoCloseable {
    private static final int ADMIN_QUEUE_SIZE = 32;     // NVME_AQ_DEPTH, what nvmet accepts at most
    private static final int ADMIN_DATA_BYTES = 64 * 1024;
    private static final int MAX_NLB = 65536;
    private static final long DEFAULT_MAX_TRANSFER = 1 << 20;

    private final NvmfConnectOptions options;
    private final CmEventChannel channel;
    private final Resources resources;
    private final AdminChannel admin;
    private final IoQueue[] io;
    private final long cap;
    private final int cc;
    private final int controllerId;
    private final ControllerIdentity identity;
    private final long maxTransferBytes;
    /** What Identify Namespace last reported, by nsid: the block size and the size every I/O is checked against. */
    private final NamespaceIdentity[] namespaces = new NamespaceIdentity[1025];
    private final Set<IoBuffer> buffers = ConcurrentHashMap.newKeySet();
    private KeepAliveTimer keepAlive;
    private volatile Thread progress;
    private volatile boolean closing;
    /** Set by the first close: AutoCloseable asks a second one to do nothing (the arenas refuse a second close). */
    private final AtomicBoolean closed = new AtomicBoolean();
    private int nextQueue;

    /** The protection domain and the registered admin data buffer, made when the admin queue's id has a device. */
    private static final class Resources implements QueueConnector.QueueResources {
        private final Arena arena = Arena.ofShared();
        private final boolean wantEvents;
        private ProtectionDomain pd;
        private MemoryRegion data;
        private CompletionChannel events;

        Resources(boolean wantEvents) {
            this.wantEvents = wantEvents;
        }

        @Override
        public ProtectionDomain protectionDomain(CmId id) {
            if (pd == null) {
                pd = id.context().allocateProtectionDomain();
                data = pd.register(arena.allocate(ADMIN_DATA_BYTES, 4096),
                        EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
            } else if (pd.context() != id.context()) {
                throw new NvmfTransportException("the I/O queue's route goes through " + id.context().name()
                        + ", the admin queue's through " + pd.context().name());
            }
            return pd;
        }

        @Override
        public MemoryRegion connectData() {
            return data;
        }

        @Override
        public CompletionChannel ioCompletionEvents() {
            if (wantEvents && events == null) {
                events = pd.context().createCompletionChannel();
            }
            return events;
        }

        /** Called after every queue is closed: a channel with CQs still on it refuses to close. */
        void close() {
            if (data != null) {
                data.close();
            }
            if (events != null) {
                events.close();
            }
            if (pd != null) {
                pd.close();
            }
            arena.close();
        }
    }

    private NvmfController(NvmfConnectOptions o, CmEventChannel channel, Resources resources, NvmfQueue adminQueue,
                           int controllerId) {
        this.options = o;
        this.channel = channel;
        this.resources = resources;
        this.controllerId = controllerId;
        this.admin = new AdminChannel(adminQueue, resources.data, o.timeout());
        this.cap = admin.propertyGet(Properties.CAP, true);
        this.cc = ControllerRegisters.enable(admin, cap, o.timeout().toNanos());
        this.identity = IdentifyData.controller(admin.identify(Opcodes.CNS_CONTROLLER, 0));
        long mdts = identity.maxTransferBytes(Properties.minPageSize(cap));
        this.maxTransferBytes = Math.min(mdts == 0 ? DEFAULT_MAX_TRANSFER : mdts, Sgl.MAX_KEYED_LENGTH + 1L - 4096);
        this.io = new IoQueue[o.isDiscovery() ? 0 : o.ioQueues()];
    }

    /**
     * Connects the admin queue over rdma_cm, enables and identifies the controller, then connects
     * the I/O queues and starts the keep-alive timer (and the progress thread, if asked for).
     *
     * @param o where and how to connect
     * @return the connected controller, owned by the caller
     * @throws ConnectRejectedException when the target refuses the Connect (e.g. no such subsystem)
     * @throws HostNotAllowedException  when the subsystem does not allow this host NQN
     * @throws NvmfTransportException   when the target cannot be reached or refuses the connection;
     *                                  everything made so far is closed
     * @throws NvmfTimeoutException     when a step takes longer than the options' timeout
     */
    public static NvmfController connect(NvmfConnectOptions o) {
        CmEventChannel channel = CmEventChannel.create();
        Resources resources = new Resources(o.progressThread() && !o.isDiscovery());
        NvmfController c = null;
        NvmfQueue adminQueue = null;
        try {
            QueueConnector connector = new QueueConnector(channel, o.target(), o.timeout());
            int kato = o.isDiscovery() ? 0 : (int) o.keepAlive().toMillis();
            QueueConnector.Connected a = connector.connect(0, ADMIN_QUEUE_SIZE, resources, o.hostId(), o.hostNqn(),
                    o.subsystemNqn(), Fabrics.CNTLID_DYNAMIC, kato);
            adminQueue = a.queue();
            c = new NvmfController(o, channel, resources, adminQueue, a.controllerId());
            int size = Math.min(o.queueSize(), Properties.maxQueueEntries(c.cap));
            for (int q = 0; q < c.io.length; q++) {
                QueueConnector.Connected ioq = connector.connect(q + 1, size, resources, o.hostId(), o.hostNqn(),
                        o.subsystemNqn(), c.controllerId, kato);
                c.io[q] = new IoQueue(ioq.queue(), c.identity.inCapsuleDataSize());
            }
            if (kato > 0) {
                c.keepAlive = new KeepAliveTimer(c.admin, o.keepAlive(), o.subsystemNqn(), c::fail);
            }
            if (o.progressThread() && c.io.length > 0) {
                c.startProgressThread();
            }
            return c;
        } catch (RuntimeException e) {
            if (c != null) {
                c.closeQuietly(false);
            } else {
                if (adminQueue != null) {
                    adminQueue.close(o.timeout());
                }
                resources.close();
                channel.close();
            }
            throw e;
        }
    }

    /**
     * The discovery log page of the target in {@code o} (its subsystem NQN is ignored): every
     * subsystem and port it offers. Connects to the discovery subsystem and disconnects again.
     *
     * @param o the target
     * @return the log's entries
     * @throws NvmfException as {@link #connect(NvmfConnectOptions)} and {@link #discoveryLog()}
     */
    public static List<DiscoveryEntry> discover(NvmfConnectOptions o) {
        try (NvmfController c = connect(o.forDiscovery())) {
            return c.discoveryLog();
        }
    }

    /**
     * Reads the discovery log page; this controller must be connected to the discovery subsystem.
     *
     * @return the log's entries
     * @throws NvmeStatusException    when the target refuses the Get Log Page
     * @throws NvmfTransportException when the connection is broken
     */
    public List<DiscoveryEntry> discoveryLog() {
        MemorySegment first = admin.logPage(Opcodes.LOG_DISCOVERY, 4096, 0);
        long records = DiscoveryLog.recordCount(first);
        long bytes = DiscoveryLog.HEADER_SIZE + records * DiscoveryLog.ENTRY_SIZE;
        if (bytes <= first.byteSize()) {
            return DiscoveryLog.entries(first);
        }
        return DiscoveryLog.entries(admin.logPage(Opcodes.LOG_DISCOVERY,
                (int) Math.min(bytes, ADMIN_DATA_BYTES), 0));
    }

    /**
     * The options this controller was connected with.
     *
     * @return the options
     */
    public NvmfConnectOptions options() {
        return options;
    }

    /**
     * The controller id the target assigned in the admin queue's Connect (CNTLID).
     *
     * @return the id
     */
    public int controllerId() {
        return controllerId;
    }

    /**
     * The controller capabilities register.
     *
     * @return CAP as Property Get returned it
     */
    public long capabilities() {
        return cap;
    }

    /**
     * What Identify Controller returned at connect.
     *
     * @return the identity
     */
    public ControllerIdentity identity() {
        return identity;
    }

    /**
     * Largest transfer of one command: the limit of the asynchronous submissions; the
     * synchronous calls split larger transfers.
     *
     * @return bytes (MDTS; 1 MiB when the controller sets no limit)
     */
    public long maxTransferBytes() {
        return maxTransferBytes;
    }

    /**
     * Number of I/O queues.
     *
     * @return the count; 0 on a discovery controller
     */
    public int ioQueueCount() {
        return io.length;
    }

    /**
     * Commands one I/O queue holds in flight.
     *
     * @return the queue size minus one; 0 without I/O queues
     */
    public int ioQueueDepth() {
        return io.length == 0 ? 0 : io[0].queue().commandSlots();
    }

    /**
     * Identify Namespace, asked now (its block size and size are remembered for I/O, which is
     * refused before it is sent when it reaches past that size).
     *
     * @param nsid the namespace id
     * @return what the controller reports; a size of 0 for an inactive namespace
     * @throws NvmeStatusException    when the target refuses the Identify
     * @throws NvmfTransportException when the connection is broken
     */
    public NamespaceIdentity namespace(int nsid) {
        NamespaceIdentity ns = IdentifyData.namespace(nsid, admin.identify(Opcodes.CNS_NAMESPACE, nsid));
        if (nsid > 0 && nsid < namespaces.length) {
            namespaces[nsid] = ns;
        }
        return ns;
    }

    /** The namespace as Identify reported it (asked on first use), or InvalidNamespaceException when it is not active. */
    private NamespaceIdentity activeNamespace(int nsid) {
        NamespaceIdentity ns = nsid > 0 && nsid < namespaces.length ? namespaces[nsid] : null;
        if (ns == null || ns.blockSize() == 0) {
            ns = namespace(nsid);
            if (ns.blockSize() == 0) {
                throw new InvalidNamespaceException("Identify Namespace " + nsid, 0x0B, NvmeStatus.INVALID_NAMESPACE,
                        "the controller reports no such active namespace");
            }
        }
        return ns;
    }

    /**
     * Sends a Keep Alive now and waits for its completion (the timer sends them anyway).
     *
     * @throws NvmfTransportException when the connection is broken
     */
    public void keepAlive() {
        admin.keepAlive();
    }

    /**
     * Registered memory the target can read and write, page-aligned.
     *
     * @param bytes the length
     * @return a new buffer, owned by the caller; closed with the controller if not before
     * @throws dev.verbs4j.verbs.VerbsException when the memory cannot be registered (memlock limit)
     */
    public IoBuffer allocateBuffer(long bytes) {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment seg = arena.allocate(bytes, 4096);
            MemoryRegion mr = resources.pd.register(seg,
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
            IoBuffer b = new IoBuffer(arena, seg, mr, buffers::remove);
            buffers.add(b);
            return b;
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    // ---- synchronous I/O ---------------------------------------------------------------------

    /**
     * Reads blocks into {@code buffer} at {@code offset} and waits, split into commands of at
     * most {@link #maxTransferBytes()}.
     *
     * @param nsid       the namespace id (1-based)
     * @param startBlock the first logical block
     * @param blocks     how many blocks, at least 1
     * @param buffer     where the data lands
     * @param offset     byte offset in the buffer
     * @throws IllegalArgumentException  when {@code blocks} is less than 1
     * @throws LbaOutOfRangeException    when a block lies past the namespace's size (nothing is sent)
     * @throws IndexOutOfBoundsException when the data does not fit the buffer at {@code offset}
     * @throws NvmeStatusException       when the target completes a command with an error status
     *                                   ({@link LbaOutOfRangeException}, {@link InvalidNamespaceException}, ...)
     * @throws NvmfTimeoutException      when a command gets no response within the timeout
     * @throws NvmfTransportException    when the connection is broken
     */
    public void read(int nsid, long startBlock, long blocks, IoBuffer buffer, long offset) {
        transfer(Opcodes.NVM_READ, nsid, startBlock, blocks, buffer, offset);
    }

    /**
     * Writes blocks from {@code buffer} at {@code offset} and waits, split as {@link #read} is.
     *
     * @param nsid       the namespace id (1-based)
     * @param startBlock the first logical block
     * @param blocks     how many blocks, at least 1
     * @param buffer     where the data comes from
     * @param offset     byte offset in the buffer
     * @throws IllegalArgumentException  when {@code blocks} is less than 1
     * @throws LbaOutOfRangeException    when a block lies past the namespace's size (nothing is sent)
     * @throws IndexOutOfBoundsException when the data does not fit the buffer at {@code offset}
     * @throws NvmeStatusException       when the target completes a command with an error status
     *                                   ({@link LbaOutOfRangeException}, {@link InvalidNamespaceException}, ...)
     * @throws NvmfTimeoutException      when a command gets no response within the timeout
     * @throws NvmfTransportException    when the connection is broken
     */
    public void write(int nsid, long startBlock, long blocks, IoBuffer buffer, long offset) {
        transfer(Opcodes.NVM_WRITE, nsid, startBlock, blocks, buffer, offset);
    }

    /**
     * Flush: the target commits what it has cached for the namespace to stable media, and this waits.
     *
     * @param nsid the namespace id
     * @throws NvmeStatusException       when the target completes a command with an error status
     *                                   ({@link LbaOutOfRangeException}, {@link InvalidNamespaceException}, ...)
     * @throws NvmfTimeoutException      when a command gets no response within the timeout
     * @throws NvmfTransportException    when the connection is broken
     */
    public void flush(int nsid) {
        transfer(Opcodes.NVM_FLUSH, nsid, 0, 1, null, 0);
    }

    /**
     * Write Zeroes: the blocks read back as zeroes, with no data sent; waits.
     *
     * @param nsid       the namespace id (1-based)
     * @param startBlock the first logical block
     * @param blocks     how many blocks, at least 1
     * @throws IllegalArgumentException when {@code blocks} is less than 1
     * @throws LbaOutOfRangeException   when a block lies past the namespace's size (nothing is sent)
     * @throws NvmeStatusException       when the target completes a command with an error status
     *                                   ({@link LbaOutOfRangeException}, {@link InvalidNamespaceException}, ...)
     * @throws NvmfTimeoutException      when a command gets no response within the timeout
     * @throws NvmfTransportException    when the connection is broken
     */
    public void writeZeroes(int nsid, long startBlock, long blocks) {
        transfer(Opcodes.NVM_WRITE_ZEROES, nsid, startBlock, blocks, null, 0);
    }

    private void transfer(int opcode, int nsid, long startBlock, long blocks, IoBuffer buffer, long offset) {
        if (blocks < 1) {
            throw new IllegalArgumentException("block count must be >= 1, got " + blocks);
        }
        NamespaceIdentity ns = activeNamespace(nsid);
        if (opcode != Opcodes.NVM_FLUSH) {
            NamespaceBounds.check(IoQueue.name(opcode), ns, startBlock, blocks); // before any part of it is sent
        }
        int bs = ns.blockSize();
        int maxBlocks = MAX_NLB;
        MemoryRegion data = null;
        if (buffer != null) {
            buffer.check(offset, blocks * bs);
            maxBlocks = (int) Math.min(MAX_NLB, maxTransferBytes / bs);
            data = buffer.region();
        }
        IoQueue q = queueFor(Thread.currentThread().threadId());
        q.queue().lock().lock();
        try {
            q.transfer(opcode, nsid, startBlock, blocks, bs, maxBlocks, data, offset,
                    System.nanoTime() + options.timeout().toNanos());
        } finally {
            q.queue().lock().unlock();
        }
    }

    private IoQueue queueFor(long key) {
        if (io.length == 0) {
            throw new IllegalStateException("a discovery controller has no I/O queues");
        }
        return io[(int) Math.floorMod(key, (long) io.length)];
    }

    // ---- asynchronous I/O --------------------------------------------------------------------

    /**
     * Submits one Read of at most {@link #maxTransferBytes()} on I/O queue {@code queue} and
     * returns at once. {@code callback} gets {@code tag} on the polling thread. Allocation-free.
     *
     * @param queue      the I/O queue, 0-based
     * @param nsid       the namespace id
     * @param startBlock the first logical block
     * @param blocks     how many blocks, 1..{@link #maxTransferBytes()} / block size
     * @param buffer     where the data lands; keep it open until the callback
     * @param offset     byte offset in the buffer
     * @param callback   called once when the Read completes or fails
     * @param tag        passed to the callback as it is
     * @return true when submitted; false when that queue has every slot in flight (poll, then try again)
     * @throws IllegalArgumentException  when {@code blocks} is out of range
     * @throws LbaOutOfRangeException    when a block lies past the namespace's size (nothing is sent)
     * @throws IndexOutOfBoundsException when the data does not fit the buffer, or {@code queue} does not exist
     * @throws NvmfTransportException    when the connection is broken
     */
    public boolean submitRead(int queue, int nsid, long startBlock, int blocks, IoBuffer buffer, long offset,
                              IoCallback callback, long tag) {
        return submit(queue, Opcodes.NVM_READ, nsid, startBlock, blocks, buffer, offset, callback, tag);
    }

    /**
     * Submits one Write, as {@link #submitRead(int, int, long, int, IoBuffer, long, IoCallback, long)} submits a Read.
     *
     * @param queue      the I/O queue, 0-based
     * @param nsid       the namespace id
     * @param startBlock the first logical block
     * @param blocks     how many blocks, 1..{@link #maxTransferBytes()} / block size
     * @param buffer     where the data comes from; keep it unchanged and open until the callback
     * @param offset     byte offset in the buffer
     * @param callback   called once when the Write completes or fails
     * @param tag        passed to the callback as it is
     * @return true when submitted; false when that queue has every slot in flight
     * @throws IllegalArgumentException  when {@code blocks} is out of range
     * @throws LbaOutOfRangeException    when a block lies past the namespace's size (nothing is sent)
     * @throws IndexOutOfBoundsException when the data does not fit the buffer, or {@code queue} does not exist
     * @throws NvmfTransportException    when the connection is broken
     */
    public boolean submitWrite(int queue, int nsid, long startBlock, int blocks, IoBuffer buffer, long offset,
                               IoCallback callback, long tag) {
        return submit(queue, Opcodes.NVM_WRITE, nsid, startBlock, blocks, buffer, offset, callback, tag);
    }

    private boolean submit(int queue, int opcode, int nsid, long startBlock, int blocks, IoBuffer buffer, long offset,
                           IoCallback callback, long tag) {
        NamespaceIdentity ns = activeNamespace(nsid);
        int bs = ns.blockSize();
        int length = blocks * bs;
        if (blocks < 1 || length > maxTransferBytes) {
            throw new IllegalArgumentException("one command moves 1.." + (maxTransferBytes / bs) + " blocks (MDTS), asked for "
                    + blocks + "; the synchronous read/write split larger transfers");
        }
        NamespaceBounds.check(IoQueue.name(opcode), ns, startBlock, blocks);
        buffer.check(offset, length);
        IoQueue q = io[queue];
        boolean posted;
        q.queue().lock().lock();
        try {
            posted = q.submit(opcode, nsid, startBlock, blocks, buffer.region(), offset, length, callback, tag);
        } finally {
            q.queue().lock().unlock();
        }
        return posted; // an armed CQ wakes a sleeping progress thread when this command completes
    }

    /**
     * A reusable future for {@link #submitRead(IoRequest, int, long, int, IoBuffer, long)} and
     * {@link #submitWrite(IoRequest, int, long, int, IoBuffer, long)}: make one per I/O kept in
     * flight at once, and submit it again after each completion.
     *
     * @return a new request of this controller, not yet submitted
     */
    public IoRequest newRequest() {
        return new IoRequest(this);
    }

    /**
     * Submits one Read on the next I/O queue in turn and returns at once; {@code request}
     * completes when the Read does. Polls (without a progress thread) while that queue is full.
     * Allocation-free.
     *
     * @param request    this controller's request, new or done (submitting it again starts it over)
     * @param nsid       the namespace id
     * @param startBlock the first logical block
     * @param blocks     how many blocks, 1..{@link #maxTransferBytes()} / block size
     * @param buffer     where the data lands; keep it open until the request is done
     * @param offset     byte offset in the buffer
     * @return {@code request}, to wait on
     * @throws IllegalStateException     when {@code request} is still in flight
     * @throws IllegalArgumentException  when {@code blocks} is out of range, or the request belongs to
     *                                   another controller
     * @throws LbaOutOfRangeException    when a block lies past the namespace's size (nothing is sent)
     * @throws IndexOutOfBoundsException when the data does not fit the buffer
     * @throws NvmfTimeoutException      when the queue stays full for the timeout
     * @throws NvmfTransportException    when the connection is broken
     */
    public IoRequest submitRead(IoRequest request, int nsid, long startBlock, int blocks, IoBuffer buffer,
                                long offset) {
        return submit(request, Opcodes.NVM_READ, nsid, startBlock, blocks, buffer, offset);
    }

    /**
     * Submits one Write, as {@link #submitRead(IoRequest, int, long, int, IoBuffer, long)} submits a Read.
     *
     * @param request    this controller's request, new or done (submitting it again starts it over)
     * @param nsid       the namespace id
     * @param startBlock the first logical block
     * @param blocks     how many blocks, 1..{@link #maxTransferBytes()} / block size
     * @param buffer     where the data comes from; keep it unchanged and open until the request is done
     * @param offset     byte offset in the buffer
     * @return {@code request}, to wait on
     * @throws IllegalStateException     when {@code request} is still in flight
     * @throws IllegalArgumentException  when {@code blocks} is out of range, or the request belongs to
     *                                   another controller
     * @throws LbaOutOfRangeException    when a block lies past the namespace's size (nothing is sent)
     * @throws IndexOutOfBoundsException when the data does not fit the buffer
     * @throws NvmfTimeoutException      when the queue stays full for the timeout
     * @throws NvmfTransportException    when the connection is broken
     */
    public IoRequest submitWrite(IoRequest request, int nsid, long startBlock, int blocks, IoBuffer buffer,
                                 long offset) {
        return submit(request, Opcodes.NVM_WRITE, nsid, startBlock, blocks, buffer, offset);
    }

    private IoRequest submit(IoRequest request, int opcode, int nsid, long startBlock, int blocks, IoBuffer buffer,
                             long offset) {
        if (request.controller() != this) {
            throw new IllegalArgumentException("the request was made by another controller");
        }
        request.begin();
        try {
            submitToNextQueue(opcode, nsid, startBlock, blocks, buffer, offset, request.completion());
        } catch (RuntimeException e) {
            request.abandon(); // nothing was posted
            throw e;
        }
        return request;
    }

    /**
     * Submits one Read on the next I/O queue in turn, polling (without a progress thread) while
     * that queue is full. Allocates a future and its callback per I/O; {@link IoRequest} is the
     * allocation-free form.
     *
     * @param nsid       the namespace id
     * @param startBlock the first logical block
     * @param blocks     how many blocks, 1..{@link #maxTransferBytes()} / block size
     * @param buffer     where the data lands; keep it open until the future completes
     * @param offset     byte offset in the buffer
     * @return a new future: completes when the Read does; completes exceptionally with the
     *         {@link NvmfException} that failed it. Without a progress thread, {@link #poll()} completes it
     * @throws IllegalArgumentException  when {@code blocks} is out of range
     * @throws LbaOutOfRangeException    when a block lies past the namespace's size (nothing is sent)
     * @throws IndexOutOfBoundsException when the data does not fit the buffer
     * @throws NvmfTimeoutException      when the queue stays full for the timeout
     */
    public CompletableFuture<Void> readAsync(int nsid, long startBlock, int blocks, IoBuffer buffer, long offset) {
        return async(Opcodes.NVM_READ, nsid, startBlock, blocks, buffer, offset);
    }

    /**
     * Submits one Write, as {@link #readAsync} submits a Read. Allocates a future and its callback
     * per I/O; {@link IoRequest} is the allocation-free form.
     *
     * @param nsid       the namespace id
     * @param startBlock the first logical block
     * @param blocks     how many blocks, 1..{@link #maxTransferBytes()} / block size
     * @param buffer     where the data comes from; keep it unchanged and open until the future completes
     * @param offset     byte offset in the buffer
     * @return a new future: completes when the Write does, or exceptionally with the
     *         {@link NvmfException} that failed it
     * @throws IllegalArgumentException  when {@code blocks} is out of range
     * @throws LbaOutOfRangeException    when a block lies past the namespace's size (nothing is sent)
     * @throws IndexOutOfBoundsException when the data does not fit the buffer
     * @throws NvmfTimeoutException      when the queue stays full for the timeout
     */
    public CompletableFuture<Void> writeAsync(int nsid, long startBlock, int blocks, IoBuffer buffer, long offset) {
        return async(Opcodes.NVM_WRITE, nsid, startBlock, blocks, buffer, offset);
    }

    private CompletableFuture<Void> async(int opcode, int nsid, long startBlock, int blocks, IoBuffer buffer,
                                          long offset) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        submitToNextQueue(opcode, nsid, startBlock, blocks, buffer, offset, (tag, error) -> {
            if (error == null) {
                f.complete(null);
            } else {
                f.completeExceptionally(error);
            }
        });
        return f;
    }

    /** Round robin over the I/O queues; waits for a free slot on the chosen one. */
    private void submitToNextQueue(int opcode, int nsid, long startBlock, int blocks, IoBuffer buffer, long offset,
                                   IoCallback done) {
        int queue = Math.floorMod(nextQueue++, Math.max(1, io.length));
        long deadline = System.nanoTime() + options.timeout().toNanos();
        while (!submit(queue, opcode, nsid, startBlock, blocks, buffer, offset, done, 0)) {
            if (progress == null) {
                poll();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new NvmfTimeoutException("I/O queue " + (queue + 1) + " stayed full for the command timeout");
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Drives every I/O queue once: completions are delivered to their callbacks and futures here,
     * on this thread. Without a progress thread, asynchronous I/O completes only when someone polls.
     * On a broken controller it fails the commands still in flight with {@link #failure()}.
     *
     * @return the number of commands completed
     */
    public int poll() {
        int n = 0;
        for (IoQueue q : io) {
            n += pollQueue(q);
        }
        return n;
    }

    /**
     * Drives one I/O queue once, as {@link #poll()} drives all.
     *
     * @param queue the I/O queue, 0-based
     * @return the number of commands completed
     * @throws IndexOutOfBoundsException when there is no such queue
     */
    public int poll(int queue) {
        return pollQueue(io[queue]);
    }

    private static int pollQueue(IoQueue q) {
        NvmfQueue nq = q.queue();
        nq.lock().lock();
        try {
            return pollHeld(nq);
        } finally {
            nq.lock().unlock();
        }
    }

    /** Polls a queue whose lock the caller holds; a broken queue fails what it has in flight. */
    private static int pollHeld(NvmfQueue nq) {
        NvmfException f = nq.failure();
        if (f != null && nq.inFlight() > 0) {
            nq.fail(f);
        }
        return nq.poll();
    }

    boolean hasProgressThread() {
        return progress != null;
    }

    boolean isProgressThread(Thread t) {
        return progress == t;
    }

    private int inFlight() {
        int n = 0;
        for (IoQueue q : io) {
            n += q.queue().inFlight();
        }
        return n;
    }

    private void startProgressThread() {
        progress = Thread.ofPlatform().daemon().name("nvmf-progress " + options.subsystemNqn())
                .start(this::progressLoop);
    }

    /**
     * Polls while commands complete or, with commands in flight, for the spin budget; then arms
     * every I/O queue's CQ, polls once more (a completion between the last poll and the arm raises
     * no event) and sleeps on the completion channel. A completion, {@link #fail} or close wakes it.
     */
    private void progressLoop() {
        CompletionChannel events = resources.events;
        long spin = options.progressSpin().toNanos();
        long quietSince = System.nanoTime();
        while (!closing) {
            if (poll() > 0) {
                quietSince = System.nanoTime();
                continue;
            }
            if (inFlight() > 0 && failure() == null && System.nanoTime() - quietSince < spin) {
                Thread.onSpinWait();
                continue;
            }
            if (armAll() > 0 || closing) {
                quietSince = System.nanoTime();
                continue;
            }
            events.awaitUninterruptibly(-1); // no periodic wake-ups: close and fail() call wakeup()
            quietSince = System.nanoTime();
        }
    }

    /** Arms each I/O queue's CQ and polls it once more; returns the commands that completed meanwhile. */
    private int armAll() {
        int n = 0;
        for (IoQueue q : io) {
            NvmfQueue nq = q.queue();
            nq.lock().lock();
            try {
                nq.armEvent();
                n += pollHeld(nq); // same lock: a completion that came before the arming raises no event
            } finally {
                nq.lock().unlock();
            }
        }
        return n;
    }

    /** Breaks the controller: every waiting and later command fails with {@code cause}. */
    private void fail(NvmfException cause) {
        admin.queue().markFailed(cause);
        for (IoQueue q : io) {
            if (q != null) {
                q.queue().markFailed(cause);
            }
        }
        wakeProgress(); // it fails the commands in flight
    }

    private void wakeProgress() {
        CompletionChannel events = resources.events;
        if (progress != null && events != null) {
            events.wakeup();
        }
    }

    /**
     * Why this controller is broken.
     *
     * @return the failure (keep-alive, transport), or null while it works
     */
    public NvmfException failure() {
        NvmfException f = admin.queue().failure();
        for (IoQueue q : io) {
            if (f == null && q != null) {
                f = q.queue().failure();
            }
        }
        return f;
    }

    /**
     * Normal shutdown (CC.SHN) when the controller still works, then stops the keep-alive timer and
     * progress thread, disconnects every queue and closes the buffers still open. A shutdown the
     * target does not complete is skipped: a target that went away leaves nothing to shut down.
     * Closing again does nothing.
     */
    @Override
    public void close() {
        closeQuietly(failure() == null);
    }

    private void closeQuietly(boolean shutdown) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closing = true;
        if (progress != null) {
            wakeProgress();
            try {
                progress.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (keepAlive != null) {
            keepAlive.close();
        }
        if (shutdown) {
            try {
                ControllerRegisters.shutdown(admin, cc, options.timeout().toNanos());
            } catch (RuntimeException ignored) {
                // the target went away: nothing left to shut down
            }
        }
        Duration t = options.timeout();
        for (IoQueue q : io) {
            if (q != null) {
                q.queue().close(t);
            }
        }
        admin.queue().close(t);
        for (IoQueue q : io) {
            if (q != null) {
                pollQueue(q); // nobody polls a closed controller: fail what is in flight, so no waiter hangs
            }
        }
        for (IoBuffer b : new ArrayList<>(buffers)) {
            b.close();
        }
        resources.close();
        channel.close();
    }
}
