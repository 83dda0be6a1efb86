package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.controller.AdminChannel;
import dev.verbs4j.nvmf.controller.IoQueue;
import dev.verbs4j.nvmf.types.ConnectRejectedException;
import dev.verbs4j.nvmf.types.ControllerIdentity;
import dev.verbs4j.nvmf.types.ControllerState;
import dev.verbs4j.nvmf.types.DiscoveryEntry;
import dev.verbs4j.nvmf.types.HostNotAllowedException;
import dev.verbs4j.nvmf.types.InvalidNamespaceException;
import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.LbaOutOfRangeException;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.nvmf.types.NvmeStatusException;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTimeoutException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.nvmf.wire.DiscoveryLog;
import dev.verbs4j.nvmf.wire.Opcodes;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CompletableFuture;

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
 * while its command is in flight. A transport failure (keep-alive lost, QP in error) takes the
 * controller to {@link ControllerState#RECONNECTING}, as Linux's initiator: it connects again every
 * {@link NvmfConnectOptions#withReconnectDelay reconnect delay}, holding the I/O submitted or in
 * flight, and sends it again once connected (the same data to the same blocks); an I/O is reported
 * complete only when the target completed it. When the
 * {@link NvmfConnectOptions#withControllerLossTimeout controller loss timeout} runs out the
 * controller is {@link ControllerState#LOST}: held and later I/O fails with
 * {@link dev.verbs4j.nvmf.types.ControllerLostException}, and {@link #failure()} says why.
 */
public final class NvmfController implements AutoCloseable {
    private final Reconnector link;
    private final Namespaces namespaces;
    private final IoSubmissions submissions;

    private NvmfController(Reconnector link) {
        this.link = link;
        this.namespaces = new Namespaces(() -> link.current().admin);
        this.submissions = new IoSubmissions(link, namespaces);
        link.start(namespaces, submissions);
    }

    /** The connection now current: a reconnect replaces it. */
    private ControllerConnection connection() {
        return link.current();
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
        return new NvmfController(Reconnector.connect(o));
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
        AdminChannel admin = connection().admin;
        MemorySegment first = admin.logPage(Opcodes.LOG_DISCOVERY, 4096, 0);
        long records = DiscoveryLog.recordCount(first);
        long bytes = DiscoveryLog.HEADER_SIZE + records * DiscoveryLog.ENTRY_SIZE;
        if (bytes <= first.byteSize()) {
            return DiscoveryLog.entries(first);
        }
        return DiscoveryLog.entries(admin.logPage(Opcodes.LOG_DISCOVERY,
                (int) Math.min(bytes, ControllerResources.ADMIN_DATA_BYTES), 0));
    }

    /**
     * The options this controller was connected with.
     *
     * @return the options
     */
    public NvmfConnectOptions options() {
        return connection().options;
    }

    /**
     * The controller id the target assigned in the admin queue's Connect (CNTLID).
     *
     * @return the id
     */
    public int controllerId() {
        return connection().controllerId;
    }

    /**
     * The controller capabilities register.
     *
     * @return CAP as Property Get returned it
     */
    public long capabilities() {
        return connection().cap;
    }

    /**
     * What Identify Controller returned at connect.
     *
     * @return the identity
     */
    public ControllerIdentity identity() {
        return connection().identity;
    }

    /**
     * Largest transfer of one command: the limit of the asynchronous submissions; the
     * synchronous calls split larger transfers.
     *
     * @return bytes (MDTS; 1 MiB when the controller sets no limit)
     */
    public long maxTransferBytes() {
        return connection().maxTransferBytes;
    }

    /**
     * Number of I/O queues.
     *
     * @return the count; 0 on a discovery controller
     */
    public int ioQueueCount() {
        return connection().io.count();
    }

    /**
     * Commands one I/O queue holds in flight.
     *
     * @return the queue size minus one; 0 without I/O queues
     */
    public int ioQueueDepth() {
        return connection().io.depth();
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
        return namespaces.identify(nsid);
    }

    /**
     * Sends a Keep Alive now and waits for its completion (the timer sends them anyway).
     *
     * @throws NvmfTransportException when the connection is broken
     */
    public void keepAlive() {
        connection().admin.keepAlive();
    }

    /**
     * Registered memory the target can read and write, page-aligned.
     *
     * @param bytes the length
     * @return a new buffer, owned by the caller; closed with the controller if not before
     * @throws dev.verbs4j.verbs.VerbsException when the memory cannot be registered (memlock limit)
     */
    public IoBuffer allocateBuffer(long bytes) {
        return link.resources().allocateBuffer(bytes);
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
        submissions.transfer(Opcodes.NVM_READ, nsid, startBlock, blocks, buffer, offset);
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
        submissions.transfer(Opcodes.NVM_WRITE, nsid, startBlock, blocks, buffer, offset);
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
        submissions.transfer(Opcodes.NVM_FLUSH, nsid, 0, 1, null, 0);
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
        submissions.transfer(Opcodes.NVM_WRITE_ZEROES, nsid, startBlock, blocks, null, 0);
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
        return submissions.submit(queue, Opcodes.NVM_READ, nsid, startBlock, blocks, buffer, offset, callback, tag);
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
        return submissions.submit(queue, Opcodes.NVM_WRITE, nsid, startBlock, blocks, buffer, offset, callback, tag);
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
        return submissions.submit(this, request, Opcodes.NVM_READ, nsid, startBlock, blocks, buffer, offset);
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
        return submissions.submit(this, request, Opcodes.NVM_WRITE, nsid, startBlock, blocks, buffer, offset);
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
        return submissions.async(Opcodes.NVM_READ, nsid, startBlock, blocks, buffer, offset);
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
        return submissions.async(Opcodes.NVM_WRITE, nsid, startBlock, blocks, buffer, offset);
    }

    /**
     * Drives every I/O queue once: completions are delivered to their callbacks and futures here,
     * on this thread. Without a progress thread, asynchronous I/O completes only when someone polls.
     * On a broken controller it fails the commands still in flight with {@link #failure()}. With a
     * progress thread its completion loop delivers everything, and this does nothing.
     *
     * @return the number of commands completed (0 with a progress thread)
     */
    public int poll() {
        ControllerConnection c = connection();
        return c.loop() != null ? 0 : c.io.pollAll();
    }

    /**
     * Drives one I/O queue once, as {@link #poll()} drives all.
     *
     * @param queue the I/O queue, 0-based
     * @return the number of commands completed
     * @throws IndexOutOfBoundsException when there is no such queue
     */
    public int poll(int queue) {
        ControllerConnection c = connection();
        IoQueue q = c.io.get(queue);
        return c.loop() != null ? 0 : IoQueues.poll(q);
    }

    /** The completion loop of the progress thread, or null when the caller polls. */
    ControllerLoop loop() {
        return connection().loop();
    }

    /**
     * Why this controller is broken: lost, or without reconnect
     * ({@link NvmfConnectOptions#withControllerLossTimeout} zero) its first transport failure.
     *
     * @return the failure ({@link dev.verbs4j.nvmf.types.ControllerLostException}, keep-alive,
     *         transport), or null while it works or reconnects
     */
    public NvmfException failure() {
        return link.failure();
    }

    /**
     * The transport failure that last took the controller's connection down (a completion in
     * error, a Keep Alive unanswered, rdma_cm reporting the target disconnected or the device
     * removed), whether it reconnected since or not: what a log says about a reconnect.
     *
     * @return the failure, or null while the first connection works
     */
    public NvmfException lastTransportFailure() {
        return link.lastTransportFailure();
    }

    /**
     * Where the controller is: LIVE, RECONNECTING after a transport failure (I/O is held), LOST
     * when reconnecting gave up, CLOSED.
     *
     * @return the state now
     */
    public ControllerState state() {
        return link.state();
    }

    /**
     * Normal shutdown (CC.SHN) when the controller still works, then stops the keep-alive timer and
     * progress thread, disconnects every queue and closes the buffers still open. A shutdown the
     * target does not complete is skipped: a target that went away leaves nothing to shut down.
     * Closing again does nothing.
     */
    @Override
    public void close() {
        link.close(true);
    }
}
