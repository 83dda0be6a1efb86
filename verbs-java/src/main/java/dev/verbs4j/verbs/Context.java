package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_async_event;
import dev.verbs4j.bindings.ibv_context;
import dev.verbs4j.unix.FileDescriptor;
import dev.verbs4j.bindings.ibv_device_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * An open RDMA device ({@code struct ibv_context}), from {@link Verbs#open(String)} or a
 * {@link CmId}.
 *
 * <p><b>Ownership.</b> The caller who opened it owns it and closes it last: close refuses
 * ({@link IllegalStateException}) while PDs, CQs, completion channels or async-event readers created
 * from it are open. A context borrowed from librdmacm (a {@link CmId}'s) is closed by librdmacm;
 * closing it here only marks it closed.
 *
 * <p><b>Threads.</b> Safe to share. Queries and the creation of objects on it hold its monitor,
 * which close holds too, so a close racing with them waits (see {@code NativeObject}). Any call on
 * a closed context throws {@link IllegalStateException}.
 */
public final class Context extends NativeObject {
    private static final MethodHandle CLOSE_DEVICE =
            NativeLibraries.verbs("ibv_close_device", Rdma.ibv_close_device$descriptor());
    private static final MethodHandle QUERY_DEVICE =
            NativeLibraries.verbs("ibv_query_device", Rdma.ibv_query_device$descriptor());

    private final DeviceInfo device;
    private final ContextOps ops;
    /** False for contexts librdmacm opened: it closes them, so close() only lets go. */
    private final boolean owned;
    /**
     * The device's limits never change while it is open, and QP/SRQ creation and GID reads all
     * check against them: query once, on first use.
     */
    private volatile DeviceAttributes attributes;
    private boolean asyncFdNonBlocking;

    Context(MemorySegment ctx, DeviceInfo device) {
        this(ctx, device, true);
    }

    private Context(MemorySegment ctx, DeviceInfo device, boolean owned) {
        super("context of " + device.name(), ctx.reinterpret(ibv_context.sizeof()), null);
        this.device = device;
        this.ops = new ContextOps(handle());
        this.owned = owned;
    }

    /** A view of a context owned by someone else (librdmacm's, for a CmId): never ibv_close_device'd. */
    static Context borrowed(MemorySegment ctx, DeviceInfo device) {
        return new Context(ctx, device, false);
    }

    /**
     * The device this context was opened on.
     *
     * @return its device-list entry (an immutable value; readable even after close)
     */
    public DeviceInfo device() {
        return device;
    }

    /**
     * The device's kernel name.
     *
     * @return e.g. {@code rxe0}; readable even after close
     */
    public String name() {
        return device.name();
    }

    /**
     * Number of completion vectors (interrupt lines) a CQ can be bound to.
     *
     * @return {@code num_comp_vectors}, at least 1 on real devices; valid vectors are 0 to this minus 1
     * @throws IllegalStateException if this context is closed
     */
    public synchronized int completionVectors() {
        return ibv_context.num_comp_vectors(handle());
    }

    /**
     * {@code ibv_query_device}, issued once per context (the attributes are fixed while it is open);
     * later calls return the cached answer.
     *
     * @return the device's capabilities and limits
     * @throws IllegalStateException if this context is closed
     * @throws VerbsException if the query fails
     */
    public synchronized DeviceAttributes queryDevice() {
        MemorySegment ctx = handle(); // a closed context refuses even a cached answer
        DeviceAttributes known = attributes;
        if (known == null) {
            known = attributes = query(ctx);
        }
        return known;
    }

    private DeviceAttributes query(MemorySegment ctx) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment attr = arena.allocate(ibv_device_attr.layout());
            int rc = (int) QUERY_DEVICE.invokeExact(errno, ctx, attr);
            Calls.checkStatus(rc, errno, "ibv_query_device", "cannot query device " + name());
            return DeviceAttributes.from(attr);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * Port attributes ({@code ibv_query_port}), including the fields the legacy exported
     * ibv_query_port leaves out. Queried afresh on each call: port state changes.
     *
     * @param port the port number, 1 to {@link DeviceAttributes#physicalPortCount()}
     * @return a snapshot of the port's state and limits
     * @throws IllegalArgumentException if {@code port} is outside the device's ports
     * @throws IllegalStateException if this context is closed
     * @throws VerbsException if the query fails
     */
    public synchronized PortAttributes queryPort(int port) {
        int ports = queryDevice().physicalPortCount();
        if (port < 1 || port > ports) {
            throw new IllegalArgumentException("port " + port + " outside 1.." + ports + " of " + name() + " (phys_port_cnt)");
        }
        return PortQuery.query(this, port);
    }

    /**
     * The port's GID table with each entry's type and network device; read afresh on each call
     * (entries come and go with IP addresses).
     *
     * @param port the port number, from 1
     * @return the valid (non-zero) entries, in index order
     * @throws IllegalArgumentException if {@code port} is not a port of the device
     * @throws IllegalStateException if this context is closed
     * @throws VerbsException if the port cannot be queried or the table cannot be read
     */
    public synchronized List<GidEntry> gidTable(int port) {
        return GidTable.read(this, port);
    }

    /**
     * Picks the GID to use on a port from its current table: see {@link GidChooser}.
     *
     * @param port    the port number, from 1
     * @param chooser the selection rule, e.g. {@link GidChooser#preferRoceV2Ipv4()}
     * @return the chosen entry; its {@link GidEntry#index()} is the {@code sgid_index} for QPs and AHs
     * @throws VerbsException if no entry fits the rule (the message lists the table) or the table
     *         cannot be read
     * @throws IllegalArgumentException if {@code port} is not a port of the device
     * @throws IllegalStateException if this context is closed
     */
    public GidEntry chooseGid(int port, GidChooser chooser) {
        return chooser.choose(name(), port, gidTable(port));
    }

    /**
     * Allocates a protection domain ({@code ibv_alloc_pd}) on this device.
     *
     * @return the new PD; the caller owns it and closes it after its MRs, QPs, SRQs and AHs, and before
     *         this context
     * @throws IllegalStateException if this context is closed
     * @throws VerbsException if the verb fails (EAGAIN under an rdma cgroup limit gives a
     *                         {@link RdmaCgroupLimitException})
     */
    public ProtectionDomain allocateProtectionDomain() {
        return new ProtectionDomain(this);
    }

    /**
     * Creates a completion channel ({@code ibv_create_comp_channel}): a file descriptor on which
     * threads wait for CQ events instead of polling.
     *
     * @return the new channel; the caller owns it and closes it after every CQ bound to it, and before
     *         this context
     * @throws IllegalStateException if this context is closed
     * @throws VerbsException if the verb fails
     */
    public CompletionChannel createCompletionChannel() {
        return new CompletionChannel(this);
    }

    /**
     * A CQ without a completion channel: poll it ({@code ibv_create_cq}).
     *
     * @param minEntries the least number of completions it must hold, at least 1 and at most the
     *                   device's {@code max_cqe}; the provider may round it up
     * @return the new CQ; the caller owns it and closes it after the QPs and SRQs that use it, and
     *         before this context
     * @throws IllegalArgumentException if {@code minEntries} is out of range
     * @throws IllegalStateException if this context is closed
     * @throws VerbsException if the verb fails (ENOMEM gives a {@link MemoryLockLimitException}, EAGAIN
     *                         under an rdma cgroup limit a {@link RdmaCgroupLimitException})
     */
    public CompletionQueue createCompletionQueue(int minEntries) {
        return new CompletionQueue(this, minEntries, null, 0);
    }

    /**
     * A CQ whose completions can also be waited for on {@code channel} ({@code ibv_create_cq}).
     *
     * @param minEntries       the least number of completions it must hold, at least 1 and at most
     *                         the device's {@code max_cqe}; the provider may round it up
     * @param channel          the channel its events arrive on, or null for none; it must outlive
     *                         the CQ and is not closed by it
     * @param completionVector the interrupt vector, 0 to {@link #completionVectors()} minus 1
     * @return the new CQ; the caller owns it and closes it after the QPs and SRQs that use it, and
     *         before {@code channel} and this context
     * @throws IllegalArgumentException if {@code minEntries} or {@code completionVector} is out of range
     * @throws IllegalStateException if this context or the channel is closed
     * @throws VerbsException if the verb fails (ENOMEM gives a {@link MemoryLockLimitException}, EAGAIN
     *                         under an rdma cgroup limit a {@link RdmaCgroupLimitException})
     */
    public CompletionQueue createCompletionQueue(int minEntries, CompletionChannel channel, int completionVector) {
        return new CompletionQueue(this, minEntries, channel, completionVector);
    }

    /**
     * Starts delivering this device's async events (port up/down, QP fatal, SRQ limit...) to
     * {@code listener}, on a daemon thread of its own.
     *
     * @param listener called on that thread for each event; it must not block for long
     * @return the running reader; the caller owns it and closes it (which stops the thread) before
     *         this context
     * @throws IllegalStateException if this context is closed
     */
    public AsyncEvents asyncEvents(AsyncEventListener listener) {
        return new AsyncEvents(this, listener);
    }

    /**
     * The fd this device's async events arrive on, for a caller that waits in its own poll or
     * epoll set and takes them with {@link #takeAsyncEvent()} (instead of {@link #asyncEvents}).
     * The context owns it; it is made non-blocking by the first call.
     *
     * @return the fd, readable while an event is pending
     * @throws IllegalStateException if this context is closed
     */
    public synchronized int asyncEventFd() {
        int fd = ibv_context.async_fd(handle());
        if (!asyncFdNonBlocking) {
            FileDescriptor.setNonBlocking(fd);
            asyncFdNonBlocking = true;
        }
        return fd;
    }

    /**
     * Takes one pending async event without waiting, acknowledged at once (see
     * {@link #asyncEventFd()}). Every context of a device gets its port events; an object's events
     * go to the context that made it.
     *
     * @return the event, or null when none is pending
     * @throws IllegalStateException if this context is closed
     */
    public AsyncEvent takeAsyncEvent() {
        int fd = asyncEventFd();
        try (Arena arena = Arena.ofConfined()) {
            return AsyncEvents.take(handle(), ErrnoCapture.allocate(arena), arena.allocate(ibv_async_event.layout()));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("reading an async event of " + name() + " (fd " + fd + ") failed", t);
        }
    }

    ContextOps ops() {
        return ops;
    }

    MemorySegment pointer() {
        return handle();
    }

    @Override
    void destroy(MemorySegment ctx) {
        if (!owned) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) CLOSE_DEVICE.invokeExact(errno, ctx);
            Calls.checkStatus(rc, errno, "ibv_close_device", "cannot close " + name());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    @Override
    public String toString() {
        return "Context[" + name() + (isClosed() ? ", closed]" : "]");
    }
}
